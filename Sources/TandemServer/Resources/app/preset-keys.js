// The account's presets key in the browser (the Swift PresetKeyring and PresetSyncCipher). A
// browser has no wallet key, so it gets the account's key wrapped for it: it publishes a slot (its
// X25519 sealing key, signed by its Ed25519 device key), and a device that holds the key wraps it
// there (X25519, HKDF-SHA256, AES-GCM) on its next sync. Records are sealed with AES-GCM under a
// key derived from the account's. Split from presets.js by concern (issue 45).

import { fromHex, hex, signBytes } from './redo.js';
import { checkName, LATEST_STAMP, queryFromJSON } from './preset-query.js';

const MAGIC = 'tandem-preset-key/v1\n';
const SALT = new TextEncoder().encode('tandem.tasks.presets.sync');
const utf8 = (text) => new TextEncoder().encode(text);

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

export const encodeKeyRecord = (record) => toBase64(utf8(MAGIC + JSON.stringify(record)));

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
