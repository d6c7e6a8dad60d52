// The presets of this browser in IndexedDB (the Swift TaskPresets): the same last-writer-wins
// rule per record (stamp, origin, id) as the CLI. Split from presets.js by concern (issue 45).

import { canonicalize } from './jcs.js';
import { hex } from './redo.js';
import { compareCodePoints } from './replay.js';
import { getMeta, setMeta } from './store.js';
import { checkName, LATEST_STAMP, PresetError, queryFromJSON, queryJSON } from './preset-query.js';

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
