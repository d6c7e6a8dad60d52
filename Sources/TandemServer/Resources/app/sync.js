// Sync of the account's Redo log with the server (spec §11.3), as the CLI's TaskSync does it:
// pull the pages the server holds after the saved cursor (every node validated here, strictly,
// before it is stored: the server is a replica, not an authority), then push the nodes it lacks.
// A page is stored before its cursor is saved, so an interrupted pull resumes without a gap.
// Runs one at a time; a request made while one runs is folded into one more run after it.

import { api, ApiError } from './api.js';
import { parseStrict } from './jcs.js';
import { appendNodes, getMeta, markSynced, setMeta, unsyncedNodes } from './store.js';
import { syncPresets } from './presets.js';
import { NodeValidationError, validateNode } from './validate.js';

const PAGE = 500;
const BATCH = 200;

export class Sync {
  /**
   * `book` is the TaskBook the pulled nodes join; `presets` the PresetBook and `keyring` the
   * PresetKeyring the saved filters sync with (after the tasks); `ensureKey` binds the device key when it is
   * not yet (an offline sign-in); `onChange(state)` hears every state: {phase: 'idle' | 'syncing'
   * | 'offline' | 'failed' | 'signed-out', waiting (unsent nodes), at (last success), error}.
   */
  constructor({ account, book, presets, keyring, ensureKey, onChange, onNodes, onPresets }) {
    this.account = account;
    this.book = book;
    this.presets = presets;
    this.keyring = keyring;
    this.onPresets = onPresets;
    this.ensureKey = ensureKey;
    this.onChange = onChange;
    this.onNodes = onNodes;
    this.state = { phase: 'idle', waiting: 0, at: null, error: null, invalidReceived: 0 };
    this.running = null;
    this.again = false;
    this.stopped = false;
  }

  set(changes) {
    this.state = { ...this.state, ...changes };
    this.onChange?.(this.state);
  }

  stop() {
    this.stopped = true;
  }

  /** Runs a sync now, or once more after the one running. Resolves when the log is synced or failed. */
  run() {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.once();
        } while (this.again && !this.stopped);
      } finally {
        this.running = null;
      }
      return this.state;
    })();
    return this.running;
  }

  async once() {
    if (this.stopped) return;
    this.set({ phase: 'syncing' });
    try {
      await this.ensureKey();
      await this.pull();
      await this.refreshAccountKeys();
      await this.push();
      if (this.presets) {
        this.presetReport = await syncPresets({
          account: this.account, book: this.presets, keyring: this.keyring, accountKeys: this.deviceKeys,
        });
        this.onPresets?.(this.presetReport);
      }
      this.set({ phase: 'idle', at: new Date(), error: null, waiting: (await unsyncedNodes(this.account)).length });
    } catch (error) {
      const waiting = await unsyncedNodes(this.account).then((nodes) => nodes.length, () => this.state.waiting);
      if (error instanceof ApiError && error.status === 0) this.set({ phase: 'offline', waiting, error: null });
      else if (error instanceof ApiError && error.status === 401) this.set({ phase: 'signed-out', waiting, error });
      else this.set({ phase: 'failed', waiting, error });
    }
  }

  async pull() {
    let cursor = await getMeta(this.account, 'cursor');
    for (;;) {
      const text = await api.pullNodes(cursor, PAGE);
      let page;
      try {
        page = parseStrict(text);
      } catch {
        throw new ApiError(502, 'INVALID_PAGE', 'The server sent a page that is not JSON.');
      }
      if (!Array.isArray(page?.nodes) || typeof page.cursor !== 'string' || typeof page.hasMore !== 'boolean') {
        throw new ApiError(502, 'INVALID_PAGE', 'The server sent a page that is not {nodes, cursor, hasMore}.');
      }
      const valid = [];
      let invalid = 0;
      const verdicts = await Promise.allSettled(page.nodes.map((node) => validateNode(node)));
      verdicts.forEach((verdict) => {
        if (verdict.status === 'fulfilled') valid.push(verdict.value);
        else if (verdict.reason instanceof NodeValidationError) invalid++;
        else throw verdict.reason;
      });
      if (valid.length) {
        await appendNodes(this.account, valid, true);
        const touched = this.book.add(valid);
        if (touched.size) this.onNodes?.(touched);
      }
      cursor = page.cursor;
      await setMeta(this.account, 'cursor', cursor);
      if (invalid) this.set({ invalidReceived: this.state.invalidReceived + invalid });
      if (!page.hasMore || page.nodes.length === 0) return;
    }
  }

  /** The account's key ids (userId = first 32 hex of each key), for "mine" and "shared". */
  async refreshAccountKeys() {
    const { keys } = await api.deviceKeys();
    // Only live keys vouch for a device's presets slot; a revoked key's tasks stay "mine".
    this.deviceKeys = new Set(keys.filter((key) => !key.revokedAt).map((key) => key.publicKey.toLowerCase()));
    const ids = keys.map((key) => key.publicKey.toLowerCase().slice(0, 32)).sort();
    await setMeta(this.account, 'accountKeys', ids);
    this.accountKeys = new Set(ids);
  }

  /** Pushes what the server lacks; a node it refuses for good is set aside, the rest still go. */
  async push() {
    const pending = await unsyncedNodes(this.account);
    const refused = [];
    for (let start = 0; start < pending.length; start += BATCH) {
      const batch = pending.slice(start, start + BATCH);
      const { results } = await api.pushNodes(batch);
      if (!Array.isArray(results) || results.length !== batch.length) {
        throw new ApiError(502, 'INVALID_PUSH_ANSWER', `${results?.length} results for ${batch.length} nodes`);
      }
      const held = [];
      results.forEach((result, index) => {
        if (result.status === 'accepted' || result.status === 'duplicate') held.push(batch[index].id);
        else if (result.code !== 'E_PARENT_NOT_FOUND') refused.push(`${result.code}: ${result.message ?? ''}`);
      });
      await markSynced(this.account, held);
    }
    if (refused.length) {
      throw new ApiError(422, 'NODES_REFUSED', `The server refused ${refused.length} change(s): ${refused[0]}`);
    }
  }
}
