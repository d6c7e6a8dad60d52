// Redo v1 change nodes (spec §2–§5): the body, its content id and its Ed25519 signature, made
// with WebCrypto. Signing keys are CryptoKey objects; a device's own key is made
// non-extractable and only ever kept in IndexedDB (see store.js).

import { canonicalBytes } from './jcs.js';

export const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

export function fromHex(text) {
  if (!/^(?:[0-9a-f]{2})*$/.test(text)) throw new Error('not lowercase hex');
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** The node without its `id` and `signature`: what is hashed and signed (spec §3). */
export function body(node) {
  const { id, signature, ...rest } = node;
  return rest;
}

export async function contentID(bodyValue) {
  return 'sha256:' + hex(await crypto.subtle.digest('SHA-256', canonicalBytes(bodyValue)));
}

/** A fresh device key: Ed25519, the private half non-extractable. */
export async function generateKey() {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify']);
  const publicKey = hex(await crypto.subtle.exportKey('raw', pair.publicKey));
  return { privateKey: pair.privateKey, publicKey };
}

/** A key from a 32-byte seed (the vectors' keys), wrapped as PKCS #8 for WebCrypto. */
export async function importSeed(seedHex, extractable = false) {
  const prefix = fromHex('302e020100300506032b657004220420');
  const pkcs8 = new Uint8Array([...prefix, ...fromHex(seedHex)]);
  return crypto.subtle.importKey('pkcs8', pkcs8, { name: 'Ed25519' }, extractable, ['sign']);
}

export async function signBytes(privateKey, bytes) {
  return hex(await crypto.subtle.sign({ name: 'Ed25519' }, privateKey, bytes));
}

/** A signed node from its parts: `author` is {userId, deviceId, publicKey, …}. */
export async function makeNode({ taskId, action, payload, parents, lamport, wall, author }, privateKey) {
  const bodyValue = {
    version: 1,
    parents,
    timestamp: { lamport, wall },
    author,
    action,
    taskId,
    data: { payload },
  };
  const bytes = canonicalBytes(bodyValue);
  const [digest, signature] = await Promise.all([
    crypto.subtle.digest('SHA-256', bytes),
    signBytes(privateKey, bytes),
  ]);
  return { ...bodyValue, id: 'sha256:' + hex(digest), signature };
}

/** `author` for a device key: userId is the first 32 hex of the public key (spec §3). */
export function author(publicKey, deviceId) {
  return { userId: publicKey.slice(0, 32), deviceId, publicKey };
}

/** A lowercase UUID v4 (spec §2). */
export function uuid() {
  return crypto.randomUUID();
}

/** Now as a Redo wall time, `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export function wallNow(date = new Date()) {
  return date.toISOString();
}
