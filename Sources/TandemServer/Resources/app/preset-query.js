// A saved task filter's name and query (the Redo-app issue's presets), as the CLI's TaskPresets
// checks them: the name rules and the query JSON (Swift TaskQuery's Codable form). Split from
// presets.js by concern (issue 45).

import { defaultQuery, SORTS, STATUSES } from './query.js';
import { FIELD } from './fields.js';
import { fieldAccepts, wallMillis } from './validate.js';

export const LATEST_STAMP = 253402300799999;
const MAX_NAME = 80;

export class PresetError extends Error {}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A name as the CLI keeps it (TaskPresets.check): white space trimmed as Swift's
 * whitespacesAndNewlines trims it (Unicode White_Space and U+200B ZERO WIDTH SPACE, which
 * Foundation's set still holds; the Node suite's preset vectors found it), one line, 1–80
 * characters (grapheme clusters, as a Swift String counts them).
 */
export function checkName(name) {
  const trimmed = String(name).replace(/^[\p{White_Space}\u200B]+|[\p{White_Space}\u200B]+$/gu, '');
  if (!trimmed) throw new PresetError('A preset name must not be empty.');
  if ([...graphemes.segment(trimmed)].length > MAX_NAME) {
    throw new PresetError(`A preset name has at most ${MAX_NAME} characters.`);
  }
  if (/[\n\v\f\r\u0085\u2028\u2029]/.test(trimmed)) throw new PresetError('A preset name must be one line.');
  return trimmed;
}

// ---- the query JSON of a preset (Swift TaskQuery's Codable form) ----

/** A page query as a preset stores it: defaults and unset members left out. */
export function queryJSON(query) {
  const json = {};
  if (query.search) json.search = query.search;
  if (query.status !== 'active') json.status = query.status;
  for (const key of ['priorityMin', 'priorityMax', 'dueBefore', 'dueAfter', 'ownership', 'limit']) {
    if (query[key] !== null && query[key] !== undefined) json[key] = query[key];
  }
  if (query.overdue) json.overdue = true;
  if (query.noDue) json.noDue = true;
  if (query.sort !== 'rank') json.sort = query.sort;
  return json;
}

/**
 * A preset's query JSON as a page query; undefined when it is not a valid query (TaskQuery.validated).
 * A member that is null counts as absent, as Swift's decoder reads it.
 */
export function queryFromJSON(given) {
  if (given === null || typeof given !== 'object' || Array.isArray(given)) return undefined;
  const json = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== null));
  const query = defaultQuery();
  const priority = (value) => fieldAccepts(FIELD.priority, value);
  if (json.search !== undefined) {
    if (typeof json.search !== 'string') return undefined;
    query.search = json.search;
  }
  if (json.status !== undefined && !STATUSES.includes((query.status = json.status))) return undefined;
  if (json.sort !== undefined && !SORTS.includes((query.sort = json.sort))) return undefined;
  if (json.ownership !== undefined && !['mine', 'shared'].includes((query.ownership = json.ownership))) return undefined;
  for (const key of ['priorityMin', 'priorityMax']) {
    if (json[key] !== undefined && !priority((query[key] = json[key]))) return undefined;
  }
  for (const key of ['dueBefore', 'dueAfter']) {
    if (json[key] !== undefined && wallMillis((query[key] = json[key])) === undefined) return undefined;
  }
  for (const key of ['overdue', 'noDue']) {
    if (json[key] !== undefined && typeof (query[key] = json[key]) !== 'boolean') return undefined;
  }
  if (json.limit !== undefined && !(Number.isInteger(json.limit) && (query.limit = json.limit) >= 1)) return undefined;
  if (query.priorityMin !== null && query.priorityMax !== null && query.priorityMin > query.priorityMax) return undefined;
  if (query.overdue && query.noDue) return undefined;
  if (query.noDue && query.status === 'active') return undefined;
  return query;
}
