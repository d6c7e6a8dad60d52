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
