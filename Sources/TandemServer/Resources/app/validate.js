// Standalone validation of a Redo node (spec §6.2), the checks the Swift NodeValidator makes, in
// its order: members and shapes, payload rules, payload size, content id, then the Ed25519
// signature with WebCrypto. Every node the browser receives passes through here before it is
// stored; a refused node carries the spec's code (E_…) and a detail.

import { FIELD, MAX_SAFE, TASK_PAYLOAD_FIELDS } from './fields.js';
import { canonicalBytes, CanonicalJSONError } from './jcs.js';
import { body, fromHex, hex } from './redo.js';

export class NodeValidationError extends Error {
  constructor(code, detail) {
    super(`${code}: ${detail}`);
    this.code = code;
    this.detail = detail;
  }
}

const fail = (code, detail) => {
  throw new NodeValidationError(code, detail);
};
const schema = (detail) => fail('E_SCHEMA_MISMATCH', detail);
const encoding = (detail) => fail('E_ENCODING_VIOLATION', detail);

export const ACTIONS = [
  'CREATE', 'UPDATE', 'DELETE', 'COMPLETE_TODO', 'CREATE_TODO', 'SNOOZE', 'ARCHIVE', 'UNARCHIVE', 'MERGE',
];
const TOP = new Set(['id', 'version', 'parents', 'timestamp', 'author', 'action', 'taskId', 'data', 'signature']);
const AUTHOR = new Set(['userId', 'deviceId', 'publicKey', 'name', 'email', 'deviceName']);
const RESERVED = new Set([
  ...TOP, ...AUTHOR, 'lamport', 'wall', 'guid', 'todoTasks', 'created', 'archived', 'deleted', 'archive',
]);
const TASK_FIELDS = new Set(TASK_PAYLOAD_FIELDS);
const STRATEGIES = new Set(['ours', 'theirs', 'union', 'lww', 'manual', 'max', 'min']);
const MAX_PAYLOAD_BYTES = 1048576;

const NODE_ID = /^sha256:[0-9a-f]{64}$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const WALL = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{3})Z$/;

/** Milliseconds since the epoch of a wall time, or undefined when it is not one (spec §2). */
export function wallMillis(text) {
  const m = typeof text === 'string' ? WALL.exec(text) : null;
  if (!m) return undefined;
  const [year, month, day, hour, minute, second, milli] = m.slice(1).map(Number);
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, milli);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.getTime();
}

/** A wall time's text from milliseconds, or undefined outside years 1…9999. */
export function wallText(millis) {
  const date = new Date(millis);
  // Beyond JavaScript's dates (±8.64e15 ms) the Date is invalid and every field NaN.
  if (!Number.isFinite(date.getTime())) return undefined;
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) return undefined;
  const pad = (value, width) => String(value).padStart(width, '0');
  return (
    `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}T` +
    `${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}.` +
    `${pad(date.getUTCMilliseconds(), 3)}Z`
  );
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

/** Reads members of one object, naming them by path in errors (the Swift FieldReader). */
class Reader {
  constructor(members, path) {
    this.members = members;
    this.path = path;
  }

  name(key) {
    return this.path ? `${this.path}.${key}` : key;
  }

  rejectUnknown(allowed, reserved = new Set()) {
    let unknown;
    for (const key of Object.keys(this.members)) {
      if (allowed.has(key)) continue;
      if (reserved.has(key)) fail('E_FORBIDDEN_FIELD', `${this.path} contains reserved field '${key}'`);
      unknown ??= key;
    }
    if (unknown !== undefined) schema(`${this.path} has unknown member '${unknown}'`);
  }

  value(key) {
    return has(this.members, key) ? this.members[key] : undefined;
  }

  string(key) {
    const value = this.value(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') schema(`${this.name(key)} must be a string`);
    return value;
  }

  requireString(key) {
    const value = this.string(key);
    if (value === undefined) schema(`${this.name(key)} is required`);
    return value;
  }

  nonEmptyString(key) {
    const value = this.string(key);
    if (value === '') schema(`${this.name(key)} must not be empty`);
    return value;
  }

  bool(key) {
    const value = this.value(key);
    if (value !== undefined && typeof value !== 'boolean') schema(`${this.name(key)} must be a boolean`);
    return value;
  }

  integer(key, min = -MAX_SAFE, max = MAX_SAFE) {
    const value = this.value(key);
    if (value === undefined) return undefined;
    if (!isInteger(value)) schema(`${this.name(key)} must be an integer within ±(2^53−1)`);
    if (value < min || value > max) schema(`${this.name(key)} must be in ${min}…${max}`);
    return value === 0 ? 0 : value;
  }

  object(key) {
    const value = this.value(key);
    if (value !== undefined && !isObject(value)) schema(`${this.name(key)} must be an object`);
    return value;
  }

  array(key) {
    const value = this.value(key);
    if (value !== undefined && !Array.isArray(value)) schema(`${this.name(key)} must be an array`);
    return value;
  }

  wall(key) {
    const text = this.string(key);
    if (text === undefined) return undefined;
    if (wallMillis(text) === undefined) {
      schema(`${this.name(key)} must be YYYY-MM-DDTHH:mm:ss.sssZ and a real UTC instant`);
    }
    return text;
  }

  requireWall(key) {
    const text = this.wall(key);
    if (text === undefined) schema(`${this.name(key)} is required`);
    return text;
  }

  todoID(key) {
    const text = this.string(key);
    if (text !== undefined && !UUID_V4.test(text)) encoding(`${this.name(key)} must be a lowercase UUID v4`);
    return text;
  }

  requireTodoID(key) {
    const text = this.todoID(key);
    if (text === undefined) schema(`${this.name(key)} is required`);
    return text;
  }

  nodeID(key) {
    const value = this.value(key);
    return value === undefined ? undefined : nodeID(value, this.name(key));
  }
}

/**
 * Whether `value` is a value of the field `row` (fields.js): its type and bounds, and null only
 * where the field takes it — as RedoField.accepts answers in Swift.
 */
export function fieldAccepts(row, value) {
  if (value === null) return row.nullable;
  switch (row.type) {
    case 'string':
      return typeof value === 'string' && !(row.nonEmpty && value === '');
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return isInteger(value) && value >= row.min && value <= row.max;
    case 'time':
      return typeof value === 'string' && wallMillis(value) !== undefined;
  }
  return false;
}

export const isInteger = (value) =>
  typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= MAX_SAFE;

function nodeID(value, name) {
  if (typeof value !== 'string') schema(`${name} must be a string`);
  if (!NODE_ID.test(value)) encoding(`${name} must be sha256:<64 lowercase hex>`);
  return value;
}

function parentCountAllowed(action, count) {
  if (action === 'CREATE') return count === 0;
  if (action === 'MERGE') return count >= 2 && count <= 10;
  return count === 1;
}

function isEmail(text) {
  const at = text.indexOf('@');
  if (/[\p{White_Space}\x1c-\x1f]/u.test(text)) return false;
  return at > 0 && at === text.lastIndexOf('@') && at < text.length - 1;
}

/** Checks `object` as the payload of `action` (spec §5); throws a NodeValidationError. */
export function readPayload(object, action) {
  const payload = new Reader(object, 'payload');
  switch (action) {
    case 'CREATE':
    case 'UPDATE': {
      payload.rejectUnknown(TASK_FIELDS, RESERVED);
      const fields = {
        title: payload.nonEmptyString('title'),
        description: payload.string('description'),
        privacy: payload.bool('privacy'),
        storyPoints: payload.integer('storyPoints', FIELD.storyPoints.min, FIELD.storyPoints.max),
        priority: payload.integer('priority', FIELD.priority.min, FIELD.priority.max),
        frequencyDays: payload.integer('frequencyDays', FIELD.frequencyDays.min, FIELD.frequencyDays.max),
      };
      if (action === 'CREATE' && fields.title === undefined) schema('payload.title is required for CREATE');
      if (action === 'UPDATE' && Object.values(fields).every((v) => v === undefined)) {
        schema('UPDATE payload must change at least one field');
      }
      return;
    }
    case 'CREATE_TODO':
      payload.rejectUnknown(new Set(['todoTaskId', 'deadline', 'notes']), RESERVED);
      payload.requireTodoID('todoTaskId');
      payload.requireWall('deadline');
      payload.string('notes');
      return;
    case 'COMPLETE_TODO':
      payload.rejectUnknown(new Set(['todoTaskId', 'completed', 'notes']), RESERVED);
      payload.requireTodoID('todoTaskId');
      payload.requireWall('completed');
      payload.string('notes');
      return;
    case 'SNOOZE': {
      payload.rejectUnknown(new Set(['todoTaskId', 'daysToExtend', 'newDeadline', 'notes']), RESERVED);
      payload.requireTodoID('todoTaskId');
      const days = payload.integer('daysToExtend', 1);
      const deadline = payload.wall('newDeadline');
      payload.string('notes');
      if ((days === undefined) === (deadline === undefined)) {
        schema('SNOOZE needs exactly one of daysToExtend and newDeadline');
      }
      return;
    }
    case 'ARCHIVE':
    case 'UNARCHIVE':
      payload.rejectUnknown(new Set(), RESERVED);
      return;
    case 'DELETE': {
      payload.rejectUnknown(new Set(['deletedChain']), RESERVED);
      const chain = payload.array('deletedChain');
      if (!chain || chain.length === 0) fail('E_MISSING_DELETED_CHAIN', 'DELETE needs a non-empty deletedChain');
      const ids = chain.map((element) => nodeID(element, 'payload.deletedChain[]'));
      if (new Set(ids).size !== ids.length) schema('payload.deletedChain has a duplicate');
      return;
    }
    case 'MERGE':
      payload.rejectUnknown(new Set(['base', 'policy', 'resolutions']), RESERVED);
      readMerge(payload);
      return;
  }
}

function strategy(reader, key) {
  const text = reader.string(key);
  if (text !== undefined && !STRATEGIES.has(text)) schema(`${reader.name(key)} '${text}' is not a merge strategy`);
  return text;
}

function readMerge(payload) {
  if (payload.nodeID('base') === undefined) schema('payload.base is required for MERGE');
  const policy = payload.object('policy');
  if (policy !== undefined) {
    const reader = new Reader(policy, 'payload.policy');
    reader.rejectUnknown(new Set(['defaultStrategy', 'lwwTiebreakers', 'arrayStrategy']));
    strategy(reader, 'defaultStrategy');
    const arrays = strategy(reader, 'arrayStrategy');
    if (arrays !== undefined && arrays !== 'union' && arrays !== 'lww') {
      schema('payload.policy.arrayStrategy must be union or lww');
    }
    for (const key of reader.array('lwwTiebreakers') ?? []) {
      if (!['lamport', 'wall', 'author'].includes(key)) schema('payload.policy.lwwTiebreakers holds an unknown key');
    }
  }
  const resolutions = payload.object('resolutions');
  if (resolutions === undefined) return;
  const reader = new Reader(resolutions, 'payload.resolutions');
  reader.rejectUnknown(new Set(['task', 'todos']));
  fieldResolutions(reader.array('task') ?? [], 'payload.resolutions.task');
  for (const entry of reader.array('todos') ?? []) {
    if (!isObject(entry)) schema('payload.resolutions.todos[] must be an object');
    const todo = new Reader(entry, 'payload.resolutions.todos[]');
    todo.rejectUnknown(new Set(['todoTaskId', 'fields']));
    todo.requireTodoID('todoTaskId');
    const fields = todo.array('fields');
    if (fields === undefined) schema('payload.resolutions.todos[].fields is required');
    fieldResolutions(fields, todo.name('fields'));
  }
}

function fieldResolutions(elements, path) {
  for (const element of elements) {
    if (!isObject(element)) schema(`${path}[] must be an object`);
    const reader = new Reader(element, `${path}[]`);
    reader.rejectUnknown(new Set(['path', 'strategy', 'chosenParent', 'value', 'notes']));
    if (reader.nonEmptyString('path') === undefined) schema(`${reader.name('path')} is required`);
    const chosen = strategy(reader, 'strategy');
    if (chosen === undefined) schema(`${reader.name('strategy')} is required`);
    const parent = reader.nodeID('chosenParent');
    if ((chosen === 'ours' || chosen === 'theirs') && parent === undefined) {
      schema(`${reader.name('chosenParent')} is required for ${chosen}`);
    }
    if (chosen === 'manual' && !has(element, 'value')) schema(`${reader.name('value')} is required for manual`);
    reader.string('notes');
  }
}

/** The checks of spec §6.2 before hashing: members, formats, payload. Throws NodeValidationError. */
export function checkShape(value) {
  if (!isObject(value)) schema('node must be a JSON object');
  const node = new Reader(value, '');
  node.rejectUnknown(TOP);
  if (node.value('version') === undefined) schema('version is required');
  if (!isInteger(value.version) || value.version !== 1) schema('version must be the integer 1');
  nodeID(node.requireString('id'), 'id');
  const action = node.requireString('action');
  if (!ACTIONS.includes(action)) schema(`action '${action}' is not one of the nine actions`);
  const parents = node.array('parents');
  if (parents === undefined) schema('parents is required');
  parents.forEach((parent) => nodeID(parent, 'parents[]'));
  if (!parentCountAllowed(action, parents.length)) schema(`${action} has ${parents.length} parents`);
  if (parents.length > 1 && new Set(parents).size !== parents.length) schema('parents contains a duplicate');
  const timestamp = node.object('timestamp');
  if (timestamp === undefined) schema('timestamp is required');
  const time = new Reader(timestamp, 'timestamp');
  time.rejectUnknown(new Set(['lamport', 'wall']));
  const lamport = time.integer('lamport', 1);
  if (lamport === undefined) schema('timestamp.lamport is required');
  time.requireWall('wall');
  if (action === 'CREATE' && lamport !== 1) fail('E_LAMPORT_VIOLATION', 'CREATE must have lamport 1');
  const authorObject = node.object('author');
  if (authorObject === undefined) schema('author is required');
  const author = new Reader(authorObject, 'author');
  author.rejectUnknown(AUTHOR);
  const userID = author.requireString('userId');
  if (author.requireString('deviceId') === '') schema('author.deviceId must not be empty');
  const publicKey = author.requireString('publicKey');
  if (!/^[0-9a-f]{64}$/.test(publicKey)) encoding('author.publicKey must be 64 lowercase hex digits');
  if (userID !== publicKey.slice(0, 32)) encoding('author.userId must be the first 32 hex digits of author.publicKey');
  author.string('name');
  author.string('deviceName');
  const email = author.string('email');
  if (email !== undefined && !isEmail(email)) schema('author.email is not an email address');
  if (!UUID_V4.test(node.requireString('taskId'))) encoding('taskId must be a lowercase UUID v4');
  const data = node.object('data');
  if (data === undefined) schema('data is required');
  const dataReader = new Reader(data, 'data');
  dataReader.rejectUnknown(new Set(['payload']));
  const payload = dataReader.object('payload');
  if (payload === undefined) schema('data.payload is required');
  readPayload(payload, action);
  const signature = node.string('signature');
  if (signature !== undefined && !/^[0-9a-f]{128}$/.test(signature)) {
    encoding('signature must be 128 lowercase hex digits');
  }
}

const publicKeys = new Map();

/** The WebCrypto key of a public key, imported once; a key WebCrypto refuses is not cached. */
async function verifyKey(publicKeyHex) {
  let key = publicKeys.get(publicKeyHex);
  if (!key) {
    key = crypto.subtle.importKey('raw', fromHex(publicKeyHex), { name: 'Ed25519' }, false, ['verify']);
    publicKeys.set(publicKeyHex, key);
    key.catch(() => publicKeys.delete(publicKeyHex));
  }
  return key;
}

/**
 * Validates a parsed node standalone (spec §6.2). `requireSignature` is the sync boundary's
 * policy: every node received from a server must be signed. Resolves to the node; rejects with
 * a NodeValidationError.
 */
export async function validateNode(value, { requireSignature = true } = {}) {
  checkShape(value);
  let bytes;
  let payloadBytes;
  try {
    bytes = canonicalBytes(body(value));
    payloadBytes = canonicalBytes(value.data.payload).length;
  } catch (error) {
    if (error instanceof CanonicalJSONError) schema(`node cannot be canonicalized: ${error.message}`);
    throw error;
  }
  if (payloadBytes > MAX_PAYLOAD_BYTES) {
    schema(`canonical payload is ${payloadBytes} bytes; the limit is ${MAX_PAYLOAD_BYTES}`);
  }
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  if ('sha256:' + hex(digest) !== value.id) fail('E_HASH_MISMATCH', 'id does not match the content');
  if (value.signature !== undefined) {
    let ok = false;
    try {
      const key = await verifyKey(value.author.publicKey);
      ok = await crypto.subtle.verify({ name: 'Ed25519' }, key, fromHex(value.signature), bytes);
    } catch {
      // A public key WebCrypto refuses to import (not a curve point) verifies nothing.
    }
    if (!ok) fail('E_INVALID_SIGNATURE', 'Ed25519 verification failed');
  } else if (requireSignature) {
    fail('E_INVALID_SIGNATURE', 'signature is required at a sync boundary');
  }
  return value;
}
