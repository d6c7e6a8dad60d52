// A task done once (issue 51 item 10) in the web app: completing it archives it and schedules
// no next todo, as the CLI's TaskEditor does; a recurring task gets its next todo. Real
// Ed25519 signatures (Node's WebCrypto) and the app's own validator and replay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { app } from './setup.mjs';

const { generateKey, author } = await app('redo.js');
const { TaskBook, ONE_TIME_FREQUENCY_DAYS } = await app('tasks.js');

async function book() {
  const key = await generateKey();
  return new TaskBook({ privateKey: key.privateKey, author: author(key.publicKey, 'web-test-device') });
}

async function completed(frequencyDays) {
  const tasks = await book();
  const now = '2026-11-30T14:00:00.000Z';
  tasks.add(await tasks.addTask({ title: 'Renew the passport', frequencyDays }, now));
  const [task] = tasks.all();
  const nodes = await tasks.complete(task, '2026-12-01T09:00:00.000Z');
  tasks.add(nodes);
  return { actions: nodes.map((node) => node.action), task: tasks.tasks.get(task.taskId) };
}

test('completing a task done once archives it and opens no next todo', async () => {
  const { actions, task } = await completed(ONE_TIME_FREQUENCY_DAYS);
  assert.deepEqual(actions, ['COMPLETE_TODO', 'ARCHIVE']);
  assert.equal(task.archived, true);
  assert.equal(task.currentTodo, null);
});

test('a recurring task gets its next todo', async () => {
  const { actions, task } = await completed(3);
  assert.deepEqual(actions, ['COMPLETE_TODO', 'CREATE_TODO']);
  assert.equal(task.archived, false);
  assert.equal(task.todoTasks.find((todo) => todo.guid === task.currentTodo).deadline, '2026-12-04T09:00:00.000Z');
});
