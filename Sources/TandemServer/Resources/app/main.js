// The tasks web app (issue 28): screens, and what each control does. Reads come from the local
// log only (IndexedDB, replayed in this page); every change is signed here, written locally,
// shown, then synced in the background. Offline, changes wait; the sync state says so.

import { api, ApiError } from './api.js';
import { author, signBytes } from './redo.js';
import { PresetBook } from './preset-book.js';
import { PresetKeyring } from './preset-keys.js';
import { queryFromJSON } from './preset-query.js';
import { defaultQuery, runQuery } from './query.js';
import { statistics, weekChart } from './stats.js';
import {
  appendNodes, deviceKey, forgetAccount, getMeta, loadNodes, markBound, sealingKey, setMeta, unsyncedNodes,
} from './store.js';
import { Sync } from './sync.js';
import { Invitations } from './invitations.js';
import { TaskBook, TaskFieldError } from './tasks.js';
import { wallMillis, wallText } from './validate.js';
import { FIELD, MAX_SAFE } from './fields.js';

const $ = (id) => document.getElementById(id);

// The editor's number boxes and the priority filter take their bounds from the field table.
for (const key of ['priority', 'storyPoints', 'frequencyDays']) {
  const box = $('edit-form').elements[key];
  box.min = FIELD[key].min;
  if (FIELD[key].max < MAX_SAFE) box.max = FIELD[key].max;
}
for (let priority = FIELD.priority.min; priority <= FIELD.priority.max; priority++) {
  $('priority-min').append(new Option(String(priority)));
}

/** What the signed-in screen works on; null while signed out. */
let app = null;

/** Tasks shared with the account that wait for its answer; an accepted one comes with a sync. */
const invitations = new Invitations({
  section: $('invitations'),
  list: $('invitation-list'),
  status: $('invitation-status'),
  onAccepted: () => syncSoon(),
});

function show(screen) {
  for (const id of ['auth', 'tasks']) $(id).hidden = id !== screen;
  $('sign-out').hidden = screen !== 'tasks';
  // The first screen shown is when the page became usable (the first-load figure reads it).
  if (!performance.getEntriesByName('tandem-interactive').length) performance.mark('tandem-interactive');
}

/**
 * Binds this browser's device key to the account (`POST /api/me/keys`), proving possession by
 * signing "tandem-key-binding/v1\n" + account id + "\n" + public key, as the CLI does. Offline,
 * the binding waits for the next sync.
 */
async function bindDeviceKey(accountId) {
  const key = await deviceKey(accountId);
  if (key.bound) return key;
  const message = new TextEncoder().encode(`tandem-key-binding/v1\n${accountId}\n${key.publicKey}`);
  await api.registerDeviceKey(key.publicKey, await signBytes(key.privateKey, message));
  await markBound(accountId);
  return { ...key, bound: true };
}

async function showSignedIn(session) {
  app?.sync.stop();
  const accountId = session.user.id;
  // Remembered so that a reload with no network opens this account's local log.
  const { id, username, name } = session.user;
  await setMeta('', 'session', { user: { id, username, name } });
  const key = await deviceKey(accountId);
  const book = new TaskBook({ privateKey: key.privateKey, author: author(key.publicKey, key.deviceId) });
  book.add(await loadNodes(accountId));
  const accountKeys = new Set((await getMeta(accountId, 'accountKeys')) ?? [key.publicKey.slice(0, 32)]);
  const presets = new PresetBook(accountId, key.deviceId);
  const keyring = new PresetKeyring(key, await sealingKey(accountId));
  app = { accountId, key, book, presets, accountKeys, editing: null, base: defaultQuery() };
  app.sync = new Sync({
    account: accountId,
    book,
    presets,
    keyring,
    ensureKey: () => bindDeviceKey(accountId),
    onChange: showSyncState,
    onNodes: () => render({ tasksChanged: true }),
    onPresets: (report) => showPresets(report),
  });
  invitations.clear();
  $('account').textContent = `Signed in as ${session.user.username ?? session.user.name}`;
  $('device').textContent = `This device: ${key.deviceId}`;
  show('tasks');
  await showPresets();
  render({ tasksChanged: true });
  syncSoon();
}

function showSignIn(message = '') {
  app?.sync.stop();
  app = null;
  invitations.clear();
  setMeta('', 'session', null).catch(() => {});
  $('auth-error').textContent = message;
  show('auth');
}

function showSyncState(state) {
  if (!app) return;
  const waiting = state.waiting ? ` · ${state.waiting} change${state.waiting === 1 ? '' : 's'} waiting` : '';
  let text;
  switch (state.phase) {
    case 'syncing': text = 'Syncing…'; break;
    case 'offline': text = 'Offline' + waiting; break;
    case 'failed': text = `Sync failed: ${state.error?.message ?? 'unknown error'}` + waiting; break;
    case 'signed-out':
      showSignIn('Your session has ended; sign in again.');
      return;
    default: text = state.at ? `Synced ${state.at.toLocaleTimeString()}` + waiting : 'Not synced yet' + waiting;
  }
  const element = $('sync-state');
  element.textContent = text;
  element.dataset.phase = state.phase;
  element.dataset.waiting = String(state.waiting);
  if (state.phase === 'idle') {
    adoptAccountKeys(app.sync.accountKeys);
    invitations.refresh();
  }
  else if (state.phase !== 'syncing') scheduleRetry();
}

/** The account's key ids as the last sync read them; a change re-renders ("mine", "shared"). */
function adoptAccountKeys(keys) {
  if (!keys || (keys.size === app.accountKeys.size && [...keys].every((key) => app.accountKeys.has(key)))) return;
  app.accountKeys = keys;
  render();
}

let retryTimer = null;
let retryDelay = 2000;

/** Offline or failed: try again later, backing off to a minute; the `online` event tries at once. */
function scheduleRetry() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => app && syncSoonKeepingDelay(), retryDelay);
  retryDelay = Math.min(retryDelay * 2, 60000);
}

/** A sync now; whatever it throws is shown as its state, never left unhandled. */
function syncSoonKeepingDelay() {
  app?.sync.run().catch((error) => app && showSyncState({ ...app.sync.state, phase: 'failed', error }));
}

function syncSoon() {
  retryDelay = 2000;
  syncSoonKeepingDelay();
}

/** Writes signed nodes to the local log, replays their task, re-renders, and syncs. */
async function commit(nodes) {
  if (!nodes.length) return;
  await appendNodes(app.accountId, nodes, false);
  app.book.add(nodes);
  render({ tasksChanged: true });
  syncSoon();
}

// ---- the list ----

/** The selected preset's query (or the defaults), with the filter controls' values over it. */
function currentQuery() {
  const query = { ...app.base };
  query.search = $('search').value;
  query.status = $('status').value;
  query.sort = $('sort').value;
  query.ownership = $('ownership').value || null;
  query.priorityMin = $('priority-min').value ? Number($('priority-min').value) : null;
  query.overdue = $('overdue').checked;
  return query;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const formattedDates = new Map();

/** A deadline as this browser shows dates; formatting is slow, and deadlines repeat. */
function formatDate(wall) {
  let text = formattedDates.get(wall);
  if (text === undefined) {
    if (formattedDates.size > 5000) formattedDates.clear();
    text = dateFormat.format(new Date(wallMillis(wall)));
    formattedDates.set(wall, text);
  }
  return text;
}

/**
 * Rows by task id, kept while their task is the same replayed object: replay makes a new object
 * for a task that changed, so a filter change moves existing rows instead of building them.
 */
let rowCache = new Map();
let rowCacheKeys = null;

/** One row, cloned from index.html's template: Complete, the title and its details, Edit. */
function rowFor(row, now) {
  const { task } = row;
  const overdue = row.due !== null && wallMillis(row.due) < now;
  const cached = rowCache.get(task.taskId);
  if (cached?.task === task) {
    cached.details.classList.toggle('overdue', overdue);
    return cached.item;
  }
  const item = $('task-row').content.firstElementChild.cloneNode(true);
  item.dataset.taskId = task.taskId;
  const [complete, main] = item.children;
  complete.disabled = task.archived || task.currentTodo === null;
  main.firstElementChild.textContent = task.title;
  const details = main.lastElementChild;
  const due = row.due === null ? 'no open todo' : `due ${formatDate(row.due)}`;
  details.textContent = `P${task.priority} · ${due}` + (task.archived ? ' · archived' : '') +
    (app.accountKeys.has(task.createdBy) ? '' : ' · shared');
  details.classList.toggle('overdue', overdue);
  rowCache.set(task.taskId, { task, item, details });
  return item;
}

/**
 * Runs the query over the replayed tasks and draws the rows. The statistics depend on the tasks
 * alone, so a filter change leaves them be; a change of the tasks passes `tasksChanged`.
 */
function render({ tasksChanged = false } = {}) {
  if (!app) return;
  if (rowCacheKeys !== app.accountKeys) {
    rowCache = new Map();
    rowCacheKeys = app.accountKeys;
  } else if (tasksChanged) {
    // Rows of tasks deleted meanwhile are let go.
    for (const taskId of rowCache.keys()) if (!app.book.tasks.has(taskId)) rowCache.delete(taskId);
  }
  const now = Date.now();
  const rows = runQuery(app.book.all(), currentQuery(), { now, accountKeys: app.accountKeys });
  const fragment = document.createDocumentFragment();
  for (const row of rows) fragment.append(rowFor(row, now));
  $('task-list').replaceChildren(fragment);
  $('count').textContent = `${rows.length} task${rows.length === 1 ? '' : 's'}`;
  if (tasksChanged) renderStats(now);
}

function renderStats(now) {
  const stats = statistics(app.book.all(), now);
  const figures = [
    ['Completions', String(stats.completions)],
    ['On time', stats.onTimeRate === null ? '—' : `${Math.round(stats.onTimeRate * 100)}%`],
    ['Current streak', `${stats.currentStreakDays} day${stats.currentStreakDays === 1 ? '' : 's'}`],
    ['Longest streak', `${stats.longestStreakDays} day${stats.longestStreakDays === 1 ? '' : 's'}`],
    ['Overdue now', String(stats.overdueNow)],
    ['Likely late next week', String(stats.expectedOverdueNextWeek)],
    ['Average lead time', stats.averageLeadTimeHours === null ? '—' : `${stats.averageLeadTimeHours.toFixed(1)} h`],
    ['Busiest weekday', stats.busiestWeekday ? stats.busiestWeekday[0].toUpperCase() + stats.busiestWeekday.slice(1) : '—'],
  ];
  const list = document.createDocumentFragment();
  for (const [name, value] of figures) {
    const term = document.createElement('dt');
    term.textContent = name;
    const definition = document.createElement('dd');
    definition.textContent = value;
    list.append(term, definition);
  }
  $('stats-figures').replaceChildren(list);
  const sentences = document.createDocumentFragment();
  for (const sentence of stats.insights) {
    const item = document.createElement('li');
    item.textContent = sentence;
    sentences.append(item);
  }
  $('stats-insights').replaceChildren(sentences);
  $('stats-chart').replaceChildren(weekChart(stats.lastEightWeeks));
}

// ---- the editor ----

/** A wall time as the value of a datetime-local input, in this browser's time zone. */
function localInput(wall) {
  const date = new Date(wallMillis(wall));
  const pad = (value) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function openEditor(task) {
  app.editing = task.taskId;
  const form = $('edit-form');
  form.reset();
  form.elements.title.value = task.title;
  form.elements.description.value = task.description;
  form.elements.priority.value = task.priority;
  form.elements.storyPoints.value = task.storyPoints;
  form.elements.frequencyDays.value = task.frequencyDays;
  form.elements.privacy.checked = task.privacy;
  const todo = task.todoTasks.find((t) => t.guid === task.currentTodo);
  form.elements.due.value = todo ? localInput(todo.deadline) : '';
  form.elements.due.disabled = !todo;
  form.elements.notes.disabled = !todo;
  $('edit-notes').textContent = todo?.notes ? `Notes: ${todo.notes}` : '';
  $('edit-snooze').disabled = !todo;
  $('edit-archive').textContent = task.archived ? 'Unarchive' : 'Archive';
  $('edit-error').textContent = '';
  $('editor').showModal();
}

function editedTask() {
  const task = app.book.tasks.get(app.editing);
  if (!task) throw new TaskFieldError('This task no longer exists.');
  return task;
}

async function editorAction(work) {
  try {
    const nodes = await work(editedTask());
    await commit(nodes);
    $('editor').close();
  } catch (error) {
    $('edit-error').textContent = error.message;
  }
}

$('edit-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.target.elements;
  editorAction((task) => {
    const integer = (name) => Number(form[name].value);
    const change = {
      title: form.title.value,
      description: form.description.value,
      priority: integer('priority'),
      storyPoints: integer('storyPoints'),
      frequencyDays: integer('frequencyDays'),
      privacy: form.privacy.checked,
      notes: form.notes.value || undefined,
    };
    if (form.due.value) {
      const due = wallText(new Date(form.due.value).getTime());
      const todo = task.todoTasks.find((t) => t.guid === task.currentTodo);
      // The input shows minutes: an untouched field keeps the deadline's own seconds.
      if (todo && localInput(todo.deadline) !== form.due.value) change.due = due;
    }
    return app.book.edit(task, change);
  });
});

$('edit-cancel').addEventListener('click', () => $('editor').close());
$('edit-snooze').addEventListener('click', () =>
  editorAction((task) => {
    const todo = task.todoTasks.find((t) => t.guid === task.currentTodo);
    return app.book.snooze(task, wallText(wallMillis(todo.deadline) + 86400000));
  }));
$('edit-archive').addEventListener('click', () => editorAction((task) => app.book.setArchived(task, !task.archived)));
$('edit-delete').addEventListener('click', () => editorAction((task) => app.book.delete(task)));
$('edit-share').addEventListener('click', async () => {
  const username = $('edit-form').elements.shareWith.value.trim();
  if (!username) {
    $('edit-error').textContent = 'Enter the username to share with.';
    return;
  }
  try {
    const task = editedTask();
    // The server shares what it holds: sync first, as `tandem tasks share` does.
    const state = await app.sync.run();
    if (state.phase !== 'idle') throw new Error('Sharing needs the server; sync first.');
    const answer = await api.shareTask(task.taskId, username);
    $('edit-error').textContent = answer.invited
      ? `Invited ${answer.username}; they see the task once they accept.`
      : `Shared with ${answer.username}.`;
  } catch (error) {
    $('edit-error').textContent = error.message;
  }
});

// ---- the list's controls ----

$('add-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = event.target.elements.title;
  try {
    await commit(await app.book.addTask({ title: input.value.trim() }));
    input.value = '';
    $('task-error').textContent = '';
  } catch (error) {
    $('task-error').textContent = error.message;
  }
});

$('task-list').addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-action]');
  const taskId = button?.closest('[data-task-id]')?.dataset.taskId;
  const task = taskId && app?.book.tasks.get(taskId);
  if (!task) return;
  if (button.dataset.action === 'edit') return openEditor(task);
  try {
    await commit(await app.book.complete(task));
  } catch (error) {
    $('task-error').textContent = error.message;
  }
});

// ---- saved filters (presets), synced with the account's other devices ----

/** Fills the preset list; `report` (from a sync) says when the account's key has not arrived. */
async function showPresets(report) {
  if (!app) return;
  const select = $('preset');
  const chosen = select.value;
  const options = [new Option('None', '')];
  for (const preset of await app.presets.list()) options.push(new Option(preset.name, preset.name));
  select.replaceChildren(...options);
  select.value = options.some((o) => o.value === chosen) ? chosen : '';
  if (select.value !== chosen) applyPreset();
  if (report?.waitingForKey) {
    $('preset-status').textContent =
      'Saved filters arrive once a device with the wallet key (the tandem CLI) has synced.';
  } else if (report) {
    $('preset-status').textContent = '';
  }
}

/** Loads the chosen preset's query into the filter controls. */
async function applyPreset() {
  const name = $('preset').value;
  const preset = name ? (await app.presets.list()).find((p) => p.name === name) : undefined;
  app.base = (preset && queryFromJSON(preset.query)) ?? defaultQuery();
  $('search').value = app.base.search ?? '';
  $('status').value = app.base.status;
  $('sort').value = app.base.sort;
  $('ownership').value = app.base.ownership ?? '';
  $('priority-min').value = app.base.priorityMin ?? '';
  $('overdue').checked = app.base.overdue;
  $('preset-name').value = name;
  render();
}

async function presetAction(work) {
  try {
    await work();
    $('preset-status').textContent = '';
    await showPresets();
    syncSoon();
  } catch (error) {
    $('preset-status').textContent = error.message;
  }
}

$('preset').addEventListener('change', () => applyPreset());
$('preset-save').addEventListener('click', () => presetAction(async () => {
  const saved = await app.presets.save($('preset-name').value, currentQuery());
  await showPresets();
  $('preset').value = saved.name;
}));
$('preset-rename').addEventListener('click', () => presetAction(async () => {
  if (!$('preset').value) throw new Error('Choose the preset to rename.');
  await app.presets.rename($('preset').value, $('preset-name').value);
  await showPresets();
  $('preset').value = $('preset-name').value.trim();
}));
$('preset-delete').addEventListener('click', () => presetAction(async () => {
  if (!$('preset').value) throw new Error('Choose the preset to delete.');
  await app.presets.remove($('preset').value);
  $('preset').value = '';
  await applyPreset();
}));

for (const id of ['search', 'status', 'sort', 'ownership', 'priority-min', 'overdue']) {
  $(id).addEventListener(id === 'search' ? 'input' : 'change', () => render());
}

$('sync-now').addEventListener('click', () => syncSoon());
window.addEventListener('online', () => syncSoon());
// Another device's changes arrive on the next sync: every half minute while the page is shown.
setInterval(() => {
  if (app && document.visibilityState === 'visible' && app.sync.state.phase === 'idle') syncSoon();
}, 30000);

// ---- accounts ----

async function start() {
  try {
    const session = await api.session();
    if (session?.user) return await showSignedIn(session);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 0) {
      // Offline: the account last signed in here works on its local log until the server is back.
      const saved = await getMeta('', 'session');
      if (saved?.user) return await showSignedIn(saved);
      return showSignIn('The server cannot be reached; try again when online.');
    }
  }
  showSignIn();
}

$('sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    await api.signIn(form.get('username'), form.get('password'));
    await start();
  } catch (error) {
    showSignIn(error.message);
  }
});

$('sign-up-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    await api.signUp({
      name: form.get('name'), email: form.get('email'), username: form.get('username'), password: form.get('password'),
    });
    await start();
  } catch (error) {
    showSignIn(error.message);
  }
});

/**
 * Signing out removes the account's log and keys from this browser (issue 50 item 9). A last sync
 * sends what it can; changes the server still lacks are lost with the log, so the person is asked
 * first. The device key is revoked on the server, since its private half is about to go.
 */
async function signOut() {
  if (!app) return showSignIn();
  const { accountId, key, presets } = app;
  try { await app.sync.run(); } catch { /* offline: what is left is counted below */ }
  const waiting = (await unsyncedNodes(accountId)).length + (await presets.outgoing()).length;
  if (waiting > 0 && !window.confirm(
    `${waiting} change${waiting === 1 ? ' has' : 's have'} not reached the server and will be lost. ` +
    'Sign out and remove them from this browser?')) return;
  app.sync.stop();
  // A key never bound answers 404; offline, the key is deleted here all the same.
  try { await api.revokeDeviceKey(key.publicKey); } catch { /* see above */ }
  try { await api.signOut(); } catch { /* signed out locally either way */ }
  await forgetAccount(accountId);
  showSignIn();
}

$('sign-out').addEventListener('click', () => {
  signOut().catch((error) => showSignIn(`Signing out failed: ${error.message}`));
});

/** For the browser test and the benchmarks: the live app's replay and render, measured. */
window.tandemTasks = {
  get book() { return app?.book; },
  get presets() { return app?.presets; },
  render,
  syncNow: () => app?.sync.run(),
};

// Loads the app with no network (sw.js); where service workers are off, it simply needs one.
navigator.serviceWorker?.register('sw.js').catch(() => {});

start().catch((error) => showSignIn(`This browser cannot run the app: ${error.message}`));
