// Saved task filters (the Redo-app issue's presets) in the browser, the same records the CLI
// syncs: the same last-writer-wins rule per record (stamp, origin, id), the same query JSON, and
// the same sealing — AES-GCM under the account's presets key (the Swift PresetKeyring and
// PresetSyncCipher). A browser has no wallet key, so it gets the account's key wrapped for it:
// it publishes a slot (its X25519 sealing key, signed by its Ed25519 device key), and a device
// that holds the key wraps it there (X25519, HKDF-SHA256, AES-GCM) on its next sync.

import { api, ApiError } from './api.js';
import { canonicalize } from './jcs.js';
import { fromHex, hex, signBytes } from './redo.js';
import { compareCodePoints } from './replay.js';
import { defaultQuery, SORTS, STATUSES } from './query.js';
import { getMeta, setMeta } from './store.js';
import { wallMillis } from './validate.js';

const LATEST_STAMP = 253402300799999;
const MAX_NAME = 80;
const MAGIC = 'tandem-preset-key/v1\n';
const SALT = new TextEncoder().encode('tandem.tasks.presets.sync');
const utf8 = (text) => new TextEncoder().encode(text);

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
  const priority = (value) => Number.isInteger(value) && value >= 1 && value <= 5;
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

// ---- the presets of this browser, in IndexedDB (the Swift TaskPresets) ----

const supersedes = (a, b) =>
  a.stamp !== b.stamp ? a.stamp > b.stamp : a.origin !== b.origin ? a.origin > b.origin : a.id > b.id;

const same = (a, b) =>
  a.name === b.name && canonicalize(a.query) === canonicalize(b.query) && a.stamp === b.stamp &&
  a.origin === b.origin && a.deleted === b.deleted;

export class PresetBook {
  constructor(account, origin) {
    this.account = account;
    this.origin = origin;
  }

  /**
   * Runs one read-modify-write of the presets at a time — in this tab and across tabs (Web
   * Locks) — so a sync merging pulled records and a save here never overwrite each other.
   */
  locked(work) {
    if (navigator.locks) return navigator.locks.request(`tandem-presets-${this.account}`, work);
    const run = (this.queue ?? Promise.resolve()).then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }

  save(name, query, now = Date.now()) {
    return this.locked(() => this.#save(name, query, now));
  }

  rename(oldName, newName, now = Date.now()) {
    return this.locked(() => this.#rename(oldName, newName, now));
  }

  remove(name, now = Date.now()) {
    return this.locked(() => this.#remove(name, now));
  }

  merge(remote, version) {
    return this.locked(() => this.#merge(remote, version));
  }

  pushed(preset, version) {
    return this.locked(() => this.#pushed(preset, version));
  }

  serverHolds(id, version) {
    return this.locked(() => this.#serverHolds(id, version));
  }

  forgetServer() {
    return this.locked(() => this.#forgetServer());
  }

  async records() {
    return (await getMeta(this.account, 'presets')) ?? {};
  }

  async write(records) {
    await setMeta(this.account, 'presets', records);
  }

  /** Live presets, one per name (the latest), by name. */
  async list() {
    const byName = new Map();
    for (const preset of Object.values(await this.records())) {
      if (preset.deleted) continue;
      const current = byName.get(preset.name);
      if (!current || supersedes(preset, current)) byName.set(preset.name, preset);
    }
    return [...byName.values()].sort((a, b) => compareCodePoints(a.name, b.name));
  }

  async nextStamp(now) {
    const last = (await getMeta(this.account, 'presetClock')) ?? 0;
    const stamp = Math.max(now, Math.min(last, LATEST_STAMP) + 1);
    await setMeta(this.account, 'presetClock', stamp);
    return stamp;
  }

  async observe(stamp) {
    const last = (await getMeta(this.account, 'presetClock')) ?? 0;
    if (stamp > last) await setMeta(this.account, 'presetClock', stamp);
  }

  /** Saves `query` (page form) as `name`: the latest record of that name is overwritten, others deleted. */
  async #save(name, query, now = Date.now()) {
    name = checkName(name);
    if (!queryFromJSON(queryJSON(query))) {
      throw new PresetError('These filters contradict each other (overdue and no due, no due and active, or an empty priority range).');
    }
    const records = await this.records();
    const stamp = await this.nextStamp(now);
    const sameName = Object.values(records).filter((p) => !p.deleted && p.name === name);
    const winner = sameName.reduce((best, p) => (!best || supersedes(p, best) ? p : best), null);
    const id = winner?.id ?? hex(crypto.getRandomValues(new Uint8Array(32)));
    records[id] = { ...(records[id] ?? { serverVersion: 0 }), id, name, query: queryJSON(query), stamp,
      origin: this.origin, deleted: false, dirty: true };
    for (const other of sameName) {
      if (other.id !== id) records[other.id] = { ...other, deleted: true, stamp, origin: this.origin, dirty: true };
    }
    await this.write(records);
    return records[id];
  }

  async #rename(oldName, newName, now = Date.now()) {
    oldName = checkName(oldName);
    newName = checkName(newName);
    const records = await this.records();
    const live = Object.values(records).filter((p) => !p.deleted);
    const sameName = live.filter((p) => p.name === oldName);
    const preset = sameName.reduce((best, p) => (!best || supersedes(p, best) ? p : best), null);
    if (!preset) throw new PresetError(`No preset '${oldName}'.`);
    if (oldName !== newName && live.some((p) => p.name === newName)) {
      throw new PresetError(`A preset '${newName}' already exists.`);
    }
    const stamp = await this.nextStamp(now);
    records[preset.id] = { ...preset, name: newName, stamp, origin: this.origin, dirty: true };
    for (const other of sameName) {
      if (other.id !== preset.id) records[other.id] = { ...other, deleted: true, stamp, origin: this.origin, dirty: true };
    }
    await this.write(records);
  }

  async #remove(name, now = Date.now()) {
    name = checkName(name);
    const records = await this.records();
    const sameName = Object.values(records).filter((p) => !p.deleted && p.name === name);
    if (!sameName.length) throw new PresetError(`No preset '${name}'.`);
    const stamp = await this.nextStamp(now);
    for (const preset of sameName) records[preset.id] = { ...preset, deleted: true, stamp, origin: this.origin, dirty: true };
    await this.write(records);
  }

  async #merge(remote, version) {
    await this.observe(remote.stamp);
    const records = await this.records();
    const local = records[remote.id];
    if (local && supersedes(local, remote)) records[remote.id] = { ...local, serverVersion: version, dirty: true };
    else if (local && same(local, remote)) records[remote.id] = { ...local, serverVersion: version, dirty: false };
    else records[remote.id] = { ...remote, serverVersion: version, dirty: false };
    await this.write(records);
  }

  async outgoing() {
    return Object.values(await this.records()).filter((p) => p.dirty).sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  async #pushed(preset, version) {
    const records = await this.records();
    const current = records[preset.id];
    if (!current) return;
    records[preset.id] = { ...current, serverVersion: version,
      dirty: current.stamp !== preset.stamp || current.origin !== preset.origin };
    await this.write(records);
  }

  async #serverHolds(id, version) {
    const records = await this.records();
    if (records[id]) {
      records[id] = { ...records[id], serverVersion: version };
      await this.write(records);
    }
  }

  async #forgetServer() {
    const records = await this.records();
    for (const id of Object.keys(records)) records[id] = { ...records[id], serverVersion: 0, dirty: true };
    await this.write(records);
  }
}

// ---- keys: the account's presets key, slots and wraps (the Swift PresetKeyring) ----

const toBase64 = (bytes) => {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text);
};

function fromBase64(text) {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

const sha256Hex = async (bytes) => hex(await crypto.subtle.digest('SHA-256', bytes));
const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

export const anchorID = () => sha256Hex(utf8('tandem-preset-anchor/v1'));
export const slotID = (sealing) => sha256Hex(utf8('tandem-preset-slot/v1\n' + sealing));
export const keyID = async (key) => (await sha256Hex(concat(utf8('tandem-preset-key-id/v1\n'), key))).slice(0, 32);
const slotMessage = (account, deviceKey, sealing) =>
  utf8(`tandem-preset-slot/v1\n${account}\n${deviceKey}\n${sealing}`);

/** True when the box starts with the key records' magic line (whatever follows it). */
export function isKeyBox(box) {
  const bytes = fromBase64(box);
  const magic = utf8(MAGIC);
  return Boolean(bytes && bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b));
}

const optionalString = (value) => value === undefined || typeof value === 'string';
const isWrap = (wrap) =>
  wrap !== null && typeof wrap === 'object' && ['keyId', 'by', 'box'].every((key) => typeof wrap[key] === 'string');

/**
 * A key record from a record's base64 box, or undefined when the box is not one or not of the
 * shape the Swift PresetKeyring.Record decodes (then its version is kept, its content ignored).
 */
export function parseKeyRecord(box) {
  if (!isKeyBox(box)) return undefined;
  try {
    const bytes = fromBase64(box).slice(utf8(MAGIC).length);
    const record = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (record === null || typeof record !== 'object' || typeof record.kind !== 'string') return undefined;
    if (!['keyId', 'deviceKey', 'sealingKey', 'signature'].every((key) => optionalString(record[key]))) return undefined;
    if (record.wraps !== undefined && !(Array.isArray(record.wraps) && record.wraps.every(isWrap))) return undefined;
    return record;
  } catch {
    return undefined;
  }
}

const encodeKeyRecord = (record) => toBase64(utf8(MAGIC + JSON.stringify(record)));

async function hkdf(secret, salt, info) {
  const material = await crypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveBits']);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt, info }, material, 256));
}

async function aesKey(bytes, usages) {
  return crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, usages);
}

/** AES-GCM as swift-crypto's `combined`: nonce (12) ‖ ciphertext ‖ tag (16). */
async function seal(keyBytes, plaintext, associated) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: associated },
    await aesKey(keyBytes, ['encrypt']), plaintext);
  return concat(iv, new Uint8Array(sealed));
}

async function open(keyBytes, combined, associated) {
  if (!combined || combined.length < 28) return undefined;
  try {
    return new Uint8Array(await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: combined.slice(0, 12), additionalData: associated },
      await aesKey(keyBytes, ['decrypt']), combined.slice(12)));
  } catch {
    return undefined;
  }
}

/** This device's keys for presets: its Ed25519 device key and its X25519 sealing key. */
export class PresetKeyring {
  constructor(device, sealing) {
    this.device = device;
    this.sealing = sealing;
  }

  async wrapKey(peer, sender, recipient) {
    let peerKey;
    try {
      peerKey = await crypto.subtle.importKey('raw', fromHex(peer), { name: 'X25519' }, false, []);
    } catch {
      return undefined;
    }
    const shared = new Uint8Array(await crypto.subtle.deriveBits({ name: 'X25519', public: peerKey },
      this.sealing.privateKey, 256));
    return hkdf(shared, utf8('tandem.tasks.presets.wrap'), utf8(`tandem task presets key wrap v1\n${sender}\n${recipient}`));
  }

  async wrap(key, recipient) {
    const id = await keyID(key);
    const wrapping = await this.wrapKey(recipient, this.sealing.publicKey, recipient);
    if (!wrapping) return undefined;
    return { keyId: id, by: this.sealing.publicKey, box: toBase64(await seal(wrapping, key, utf8(id))) };
  }

  async unwrap(wrap) {
    const wrapping = await this.wrapKey(wrap.by, wrap.by, this.sealing.publicKey);
    const key = wrapping && (await open(wrapping, fromBase64(wrap.box), utf8(wrap.keyId)));
    return key?.length === 32 && (await keyID(key)) === wrap.keyId ? key : undefined;
  }

  async ownSlot(account) {
    const signature = await signBytes(this.device.privateKey,
      slotMessage(account, this.device.publicKey, this.sealing.publicKey));
    return { kind: 'slot', deviceKey: this.device.publicKey, sealingKey: this.sealing.publicKey, signature, wraps: [] };
  }

  static async isVouched(slot, account, accountKeys) {
    if (slot?.kind !== 'slot' || !accountKeys.has(slot.deviceKey) || !/^[0-9a-f]{64}$/.test(slot.sealingKey ?? '') ||
        !/^[0-9a-f]{128}$/.test(slot.signature ?? '')) return false;
    try {
      const key = await crypto.subtle.importKey('raw', fromHex(slot.deviceKey), { name: 'Ed25519' }, false, ['verify']);
      return await crypto.subtle.verify({ name: 'Ed25519' }, key, fromHex(slot.signature),
        slotMessage(account, slot.deviceKey, slot.sealingKey));
    } catch {
      return false;
    }
  }

  /**
   * The account's key and the key records to write (`records`: id → {version, record}; a record
   * of unknown shape has kind 'unknown'), as the Swift PresetKeyring.resolve decides them; a
   * browser never derives the key itself.
   */
  async resolve(records, account, accountKeys) {
    const result = { key: undefined, writes: [] };
    const ownID = await slotID(this.sealing.publicKey);
    const slots = new Map();
    for (const [id, entry] of Object.entries(records)) {
      const record = entry.record;
      if (record.kind !== 'slot' || id !== (await slotID(record.sealingKey ?? ''))) continue;
      if (await PresetKeyring.isVouched(record, account, accountKeys)) slots.set(id, entry);
    }
    const vouched = new Set([...slots.values()].map((entry) => entry.record.sealingKey));
    const holds = (slot, id) => (slot.wraps ?? []).some((w) => w.keyId === id && vouched.has(w.by));
    const anchorEntry = records[await anchorID()];
    const anchor = anchorEntry?.record.kind === 'anchor' ? anchorEntry.record.keyId : undefined;
    const dud = new Set();
    if (anchor) {
      for (const wrap of slots.get(ownID)?.record.wraps ?? []) {
        if (wrap.keyId !== anchor || !vouched.has(wrap.by)) continue;
        result.key = await this.unwrap(wrap);
        if (result.key) break;
        dud.add(wrap.box);
      }
    }
    // No key named yet — or one that no device of the account holds any more (its last holder
    // gone), so nobody can read what it sealed: this device names a new one.
    if (!result.key && (!anchor || ![...slots.values()].some((entry) => holds(entry.record, anchor)))) {
      result.key = crypto.getRandomValues(new Uint8Array(32));
      result.writes.push({ id: await anchorID(), record: { kind: 'anchor', keyId: await keyID(result.key) },
        replacing: anchorEntry?.version ?? 0 });
    }
    const own = structuredClone(slots.get(ownID)?.record ?? (await this.ownSlot(account)));
    let writeOwn = !slots.has(ownID);
    if (!result.key && dud.size) {
      // Wraps for this device that do not open are dropped, so holders wrap the key again.
      own.wraps = (own.wraps ?? []).filter((w) => !dud.has(w.box));
      writeOwn = true;
    }
    if (result.key) {
      // This device keeps its own copy, wrapped by itself, whoever wrapped one for it.
      const id = await keyID(result.key);
      if (!(own.wraps ?? []).some((w) => w.keyId === id && w.by === this.sealing.publicKey)) {
        own.wraps = [...(own.wraps ?? []).filter((w) => w.keyId === id), await this.wrap(result.key, this.sealing.publicKey)];
        writeOwn = true;
      }
    }
    if (writeOwn) result.writes.push({ id: ownID, record: own, replacing: records[ownID]?.version ?? 0 });
    if (!result.key) return result;
    const id = await keyID(result.key);
    for (const [slot, entry] of [...slots].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (slot === ownID || holds(entry.record, id)) continue;
      const wrap = await this.wrap(result.key, entry.record.sealingKey);
      if (!wrap) continue;
      const wraps = [...(entry.record.wraps ?? []).filter((w) => w.keyId === id), wrap];
      result.writes.push({ id: slot, record: { ...entry.record, wraps }, replacing: entry.version });
    }
    return result;
  }
}

/** Seals and opens preset records with the account's key (the Swift PresetSyncCipher). */
export class PresetCipher {
  static async from(accountKey) {
    const cipher = new PresetCipher();
    cipher.key = await hkdf(accountKey, SALT, utf8('tandem task presets sync v2: record sealing key'));
    return cipher;
  }

  async seal(preset) {
    const plaintext = JSON.stringify({ deleted: preset.deleted, name: preset.name, origin: preset.origin,
      query: preset.query, stamp: preset.stamp, v: 1 });
    return toBase64(await seal(this.key, utf8(plaintext), utf8(preset.id)));
  }

  async open(id, box) {
    const bytes = await open(this.key, fromBase64(box), utf8(id));
    if (!bytes) return undefined;
    try {
      const record = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
      if (record.v !== 1 || typeof record.deleted !== 'boolean' || typeof record.origin !== 'string' ||
          !record.origin || !Number.isInteger(record.stamp) || record.stamp < 0 || record.stamp > LATEST_STAMP ||
          typeof record.name !== 'string' || checkName(record.name) !== record.name || !queryFromJSON(record.query)) {
        return undefined;
      }
      return { id, name: record.name, query: record.query, stamp: record.stamp, origin: record.origin,
        deleted: record.deleted };
    } catch {
      return undefined;
    }
  }
}

/**
 * One preset sync (the Swift PresetSync): pull records after the cursor, keeping key records and
 * unread preset records in the sync state; settle the key; read what waits; push what changed
 * here. Resolves to {pulled, pushed, unreadable, waitingForKey}.
 */
export function syncPresets(options) {
  const run = () => syncPresetsNow(options);
  return navigator.locks ? navigator.locks.request(`tandem-preset-sync-${options.account}`, run) : run();
}

/** Writes records by compare-and-swap, at most 200 a request; false on a version conflict. */
async function putRecords(drafts, written) {
  try {
    for (let start = 0; start < drafts.length; start += 200) {
      const part = drafts.slice(start, start + 200);
      const { records } = await api.putPresetRecords(part);
      if (!Array.isArray(records) || records.length !== part.length) {
        throw new ApiError(502, 'INVALID_PUT_ANSWER', `${records?.length} answers for ${part.length} records`);
      }
      for (let i = 0; i < part.length; i++) await written(part[i], records[i].version, start + i);
    }
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return false;
    throw error;
  }
}

async function syncPresetsNow({ account, book, keyring, accountKeys }) {
  const report = { pulled: 0, pushed: 0, unreadable: 0, conflicts: 0, waitingForKey: false };
  const state = (await getMeta(account, 'presetSync')) ?? { cursor: null, keyRecords: {}, unread: {} };
  const save = () => setMeta(account, 'presetSync', state);
  for (let round = 0; round < 8; round++) {
    for (;;) {
      const page = await api.presetRecords(state.cursor, 500);
      if (!Array.isArray(page?.records) || typeof page.cursor !== 'string') {
        throw new ApiError(502, 'INVALID_PAGE', 'The server sent a presets page that is not {records, cursor, hasMore}.');
      }
      for (const record of page.records) {
        const held = { version: record.version, box: record.box };
        if (isKeyBox(record.box)) state.keyRecords[record.id] = held;
        else state.unread[record.id] = held;
      }
      state.cursor = page.cursor;
      await save();
      if (!page.hasMore || !page.records.length) break;
    }
    const records = {};
    for (const [id, held] of Object.entries(state.keyRecords)) {
      records[id] = { version: held.version, record: parseKeyRecord(held.box) ?? { kind: 'unknown' } };
    }
    const { key, writes } = await keyring.resolve(records, account, accountKeys);
    if (writes.length) {
      const drafts = writes.map((w) => ({ id: w.id, box: encodeKeyRecord(w.record), baseVersion: w.replacing }));
      const stored = await putRecords(drafts, (draft, version) => {
        state.keyRecords[draft.id] = { version, box: draft.box };
      });
      await save();
      if (!stored) {
        report.conflicts++;
        continue;
      }
    }
    if (!key) {
      report.waitingForKey = true;
      return report;
    }
    const cipher = await PresetCipher.from(key);
    for (const [id, held] of Object.entries(state.unread)) {
      const preset = await cipher.open(id, held.box);
      if (preset) {
        await book.merge(preset, held.version);
        report.pulled++;
      } else {
        report.unreadable++;
        await book.serverHolds(id, held.version);
      }
      delete state.unread[id];
    }
    await save();
    const outgoing = await book.outgoing();
    if (!outgoing.length) return report;
    const drafts = await Promise.all(outgoing.map(async (preset) => ({
      id: preset.id, box: await cipher.seal(preset), baseVersion: preset.serverVersion })));
    const stored = await putRecords(drafts, async (draft, version, index) => {
      await book.pushed(outgoing[index], version);
      report.pushed++;
    });
    if (stored) return report;
    report.conflicts++;
  }
  throw new ApiError(409, 'TOO_MANY_CONFLICTS', 'Saved filters kept changing on other devices; sync again.');
}

