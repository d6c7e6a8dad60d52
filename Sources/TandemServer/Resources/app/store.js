// The browser's local store (issue 28), in IndexedDB, the truth this app reads (spec §11.3):
// - `keys`: one device key per account, made by WebCrypto with its private half non-extractable
//   (the key object itself is stored; its bytes never leave WebCrypto);
// - `nodes`: each account's Redo log, every node validated before it is written, with whether
//   the server holds it yet;
// - `meta`: per-account sync bookkeeping (the pull cursor, the account's key ids).
// Signing out removes an account's rows from all three (`forgetAccount`, issue 50 item 9).

import { generateKey, hex } from './redo.js';

const DATABASE = 'tandem-tasks';
const VERSION = 2;

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
    open.onupgradeneeded = (event) => {
      const db = open.result;
      if (event.oldVersion < 1) db.createObjectStore('keys');
      if (event.oldVersion < 2) {
        const nodes = db.createObjectStore('nodes', { keyPath: ['account', 'id'] });
        nodes.createIndex('account', 'account');
        nodes.createIndex('unsynced', ['account', 'synced']);
        db.createObjectStore('meta');
      }
    };
    // Another tab with a newer version asks this one to let go.
    open.onblocked = () => reject(new Error('Close the other tabs of this app to upgrade its storage.'));
    open.onsuccess = () => {
      // A newer version of the app in another tab upgrades the database: let go of it.
      open.result.onversionchange = () => {
        open.result.close();
        opened = undefined;
      };
      resolve(open.result);
    };
    open.onerror = () => reject(open.error);
  });
  // A failure is not kept: the next use tries again.
  opened.catch(() => { opened = undefined; });
  return opened;
}

async function inStore(name, mode, body) {
  const db = await database();
  const transaction = db.transaction(name, mode);
  // Listen before any request runs: the transaction may end as soon as its last request does.
  const done = new Promise((resolve, reject) => {
    transaction.oncomplete = resolve;
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error ?? new Error('the storage transaction was aborted'));
  });
  let result;
  try {
    result = await body(transaction.objectStore(name));
  } catch (error) {
    try { transaction.abort(); } catch { /* already finished */ }
    done.catch(() => {});
    throw error;
  }
  await done;
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

/**
 * This browser's X25519 sealing key for `accountId`'s saved filters (preset-keys.js): made on first
 * use beside the device key, its private half non-extractable. {privateKey, publicKey (hex)}.
 */
export async function sealingKey(accountId) {
  const key = await deviceKey(accountId);
  if (key.sealing) return key.sealing;
  const pair = await crypto.subtle.generateKey({ name: 'X25519' }, false, ['deriveBits']);
  const sealing = { privateKey: pair.privateKey, publicKey: hex(await crypto.subtle.exportKey('raw', pair.publicKey)) };
  // Another tab may have made one meanwhile: the first one stored is the one used.
  return inStore('keys', 'readwrite', async (keys) => {
    const current = await request(keys.get(accountId));
    if (current.sealing) return current.sealing;
    await request(keys.put({ ...current, sealing }, accountId));
    return sealing;
  });
}

/** Remembers that the server holds `accountId`'s key. */
export async function markBound(accountId) {
  await inStore('keys', 'readwrite', async (keys) => {
    const key = await request(keys.get(accountId));
    if (key) await request(keys.put({ ...key, bound: true }, accountId));
  });
}

/** Every node of `account`'s log. */
export async function loadNodes(account) {
  const rows = await inStore('nodes', 'readonly', (nodes) => request(nodes.index('account').getAll(account)));
  return rows.map((row) => row.node);
}

/**
 * Writes validated nodes to `account`'s log in one transaction; a node already held keeps its
 * row (a pulled copy never marks a local node unsent, and vice versa it becomes sent).
 */
export async function appendNodes(account, nodes, synced) {
  await inStore('nodes', 'readwrite', async (store) => {
    await Promise.all(nodes.map(async (node) => {
      const existing = await request(store.get([account, node.id]));
      if (existing && (existing.synced || !synced)) return;
      await request(store.put({ account, id: node.id, node, synced: synced ? 1 : 0 }));
    }));
  });
}

/** Nodes of `account`'s log the server does not hold yet, oldest first by lamport. */
export async function unsyncedNodes(account) {
  const rows = await inStore('nodes', 'readonly', (nodes) =>
    request(nodes.index('unsynced').getAll([account, 0])));
  return rows.map((row) => row.node).sort((a, b) => a.timestamp.lamport - b.timestamp.lamport);
}

/** Records that the server holds these nodes. */
export async function markSynced(account, ids) {
  await inStore('nodes', 'readwrite', async (store) => {
    await Promise.all(ids.map(async (id) => {
      const row = await request(store.get([account, id]));
      if (row && !row.synced) await request(store.put({ ...row, synced: 1 }));
    }));
  });
}

export async function getMeta(account, name) {
  return inStore('meta', 'readonly', (meta) => request(meta.get([account, name])));
}

export async function setMeta(account, name, value) {
  await inStore('meta', 'readwrite', (meta) => request(meta.put(value, [account, name])));
}

/**
 * Removes everything this browser keeps for `account` (its device and sealing keys, its log, its
 * bookkeeping) in one transaction: signing out leaves nothing of the account behind.
 */
export async function forgetAccount(account) {
  const db = await database();
  const transaction = db.transaction(['keys', 'nodes', 'meta'], 'readwrite');
  const done = new Promise((resolve, reject) => {
    transaction.oncomplete = resolve;
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error ?? new Error('the storage transaction was aborted'));
  });
  transaction.objectStore('keys').delete(account);
  const nodes = transaction.objectStore('nodes');
  const ids = await request(nodes.index('account').getAllKeys(account));
  for (const id of ids) nodes.delete(id);
  // Meta keys are [account, name]: every name sorts below an array.
  transaction.objectStore('meta').delete(IDBKeyRange.bound([account], [account, []]));
  await done;
}
