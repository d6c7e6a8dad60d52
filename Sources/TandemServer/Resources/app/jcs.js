// RFC 8785 (JCS) canonical JSON of a parsed value (Redo spec §4): members sorted by UTF-16 code
// units (JavaScript's default string order), strings escaped as JSON.stringify does, numbers
// written as ECMAScript's Number#toString — the serialization JCS is defined by.

export class CanonicalJSONError extends Error {}

export function canonicalize(value) {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJSONError('a number must be finite');
      return Object.is(value, -0) ? '0' : String(value);
    case 'string':
      if (!value.isWellFormed()) throw new CanonicalJSONError('a string holds a lone surrogate');
      return JSON.stringify(value);
    case 'object':
      if (Array.isArray(value)) return '[' + value.map(canonicalize).join(',') + ']';
      return (
        '{' +
        Object.keys(value)
          .sort()
          .map((key) => {
            if (!key.isWellFormed()) throw new CanonicalJSONError('a member name holds a lone surrogate');
            return JSON.stringify(key) + ':' + canonicalize(value[key]);
          })
          .join(',') +
        '}'
      );
    default:
      throw new CanonicalJSONError(`${typeof value} is not JSON`);
  }
}

/** The canonical form's UTF-8 bytes. */
export function canonicalBytes(value) {
  return new TextEncoder().encode(canonicalize(value));
}

export class StrictJSONError extends Error {}

/**
 * Parses JSON text as I-JSON (spec §2): JSON.parse's grammar, but a duplicate member name is an
 * error instead of the last one silently winning. Strings keep what JSON.parse makes of them;
 * lone surrogates are refused later, by canonicalize().
 */
export function parseStrict(text) {
  const value = JSON.parse(text);
  // JSON.parse has accepted the grammar; one scan over the text finds duplicate names.
  const stack = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x7b) { // {
      stack.push(new Set());
      i++;
    } else if (c === 0x5b) { // [
      stack.push(null);
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      i++;
    } else if (c === 0x22) { // a string: find its end, skipping escapes
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x5c) j += 2;
        else if (d === 0x22) break;
        else j++;
      }
      const members = stack[stack.length - 1];
      if (members) {
        // A string directly inside an object is a name when a colon follows it.
        let k = j + 1;
        while (k < n && /\s/.test(text[k])) k++;
        if (text[k] === ':') {
          const name = JSON.parse(text.slice(i, j + 1));
          if (members.has(name)) throw new StrictJSONError(`duplicate member name ${JSON.stringify(name)}`);
          members.add(name);
        }
      }
      i = j + 1;
    } else {
      i++;
    }
  }
  return value;
}
