// The browser's local store (issue 28), in IndexedDB: one device key per account, made by
// WebCrypto with its private half non-extractable (the key object itself is stored; its bytes
// never leave WebCrypto).

import { generateKey, hex } from './redo.js';

const DATABASE = 'tandem-tasks';
const VERSION = 1;

function request(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

let opened;

/** The database, opened (and made on first use) once per page. */
export function database() {
  opened ??= new Promise((resolve, reject) => {
    const open = indexedDB.open(DATABASE, VERSION);
    open.onupgradeneeded = () => {
      const db = open.result;
      db.createObjectStore('keys');
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  return opened;
}

async function inStore(name, mode, body) {
  const db = await database();
  const transaction = db.transaction(name, mode);
  const result = await body(transaction.objectStore(name));
  await new Promise((resolve, reject) => {
    transaction.oncomplete = resolve;
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
  return result;
}

/**
 * This browser's device key for `accountId`: {privateKey, publicKey, deviceId, bound}, made on
 * first use. A key belongs to one account, so each account signed in here has its own.
 */
export async function deviceKey(accountId) {
  const existing = await inStore('keys', 'readonly', (keys) => request(keys.get(accountId)));
  if (existing) return existing;
  const { privateKey, publicKey } = await generateKey();
  const deviceId = 'web-' + hex(crypto.getRandomValues(new Uint8Array(8)));
  const key = { privateKey, publicKey, deviceId, bound: false };
  // Another tab may have made one meanwhile: add() refuses to overwrite, and its key is used.
  try {
    await inStore('keys', 'readwrite', (keys) => request(keys.add(key, accountId)));
    return key;
  } catch {
    return inStore('keys', 'readonly', (keys) => request(keys.get(accountId)));
  }
}

/** Remembers that the server holds `accountId`'s key. */
export async function markBound(accountId) {
  await inStore('keys', 'readwrite', async (keys) => {
    const key = await request(keys.get(accountId));
    if (key) await request(keys.put({ ...key, bound: true }, accountId));
  });
}
