// Saved task filters (the Redo-app issue's presets) in the browser, the same records the CLI
// syncs: the same last-writer-wins rule per record (stamp, origin, id), the same query JSON, and
// the same sealing — AES-GCM under the account's presets key (the Swift PresetKeyring and
// PresetSyncCipher). A browser has no wallet key, so it gets the account's key wrapped for it:
// it publishes a slot (its X25519 sealing key, signed by its Ed25519 device key), and a device
// that holds the key wraps it there (X25519, HKDF-SHA256, AES-GCM) on its next sync.
//
// This module is the sync; the name and query rules are preset-query.js, this browser's records
// preset-book.js, the keys and the sealing preset-keys.js.

import { api, ApiError } from './api.js';
import { getMeta, setMeta } from './store.js';
import { encodeKeyRecord, isKeyBox, parseKeyRecord, PresetCipher } from './preset-keys.js';

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
