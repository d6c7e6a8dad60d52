// The web app's field table against Swift's (issue 46 item 5): fields.js holds the rows of
// redo-fields.json, which RedoProtocolTests write from RedoField.all, and every place of the app
// that checks a field — the validator's payload reader, the merge's manual values and the task
// editor — accepts exactly the probe values Swift's RedoField.accepts accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { app, vectors } from './setup.mjs';

const { FIELDS, FIELD, TASK_FIELDS, todoFieldKeys, TASK_PAYLOAD_FIELDS } = await app('fields.js');
const { fieldAccepts, readPayload } = await app('validate.js');
const { manualValue, replay } = await app('replay.js');
const { checkFields } = await app('tasks.js');
const file = vectors('redo-fields.json');

const accepted = (run) => {
  try {
    run();
    return true;
  } catch {
    return false;
  }
};

test('fields.js holds the rows of redo-fields.json, in order', () => {
  assert.deepEqual(FIELDS, file.fields);
  assert.deepEqual(TASK_FIELDS, file.fields.filter((f) => f.owner === 'task').map((f) => f.key));
  assert.deepEqual(todoFieldKeys, file.fields.filter((f) => f.owner === 'todo').map((f) => f.key));
  assert.deepEqual(TASK_PAYLOAD_FIELDS, file.fields.filter((f) => f.inTaskPayload).map((f) => f.key));
});

test(`every check of a field accepts what Swift accepts: ${file.probes.length} probes`, () => {
  assert.ok(file.probes.length > 60, 'the vector probes each side of every bound');
  for (const { key, value, accepted: expected } of file.probes) {
    const what = `${key} = ${JSON.stringify(value)}`;
    assert.equal(fieldAccepts(FIELD[key], value), expected, `fieldAccepts: ${what}`);
    assert.equal(manualValue(value, key) !== undefined, expected, `replay.js manualValue: ${what}`);
    if (!FIELD[key].inTaskPayload) continue;
    const payload = key === 'title' ? { title: value } : { title: 't', [key]: value };
    assert.equal(accepted(() => readPayload(payload, 'CREATE')), expected, `validate.js CREATE payload: ${what}`);
    assert.equal(accepted(() => readPayload({ [key]: value }, 'UPDATE')), expected, `validate.js UPDATE: ${what}`);
    assert.equal(accepted(() => checkFields({ [key]: value })), expected, `tasks.js checkFields: ${what}`);
  }
});

test('the replay gives a CREATE without fields the rows\' defaults', () => {
  const { defaults } = file;
  const { tasks, rejected } = replay(defaults.nodes);
  assert.deepEqual(rejected, []);
  // The title is required, so it is the CREATE's; every other field is its row's default.
  for (const key of TASK_FIELDS.filter((name) => !FIELD[name].nonEmpty)) {
    assert.deepEqual(tasks[0][key], FIELD[key].default, key);
  }
  assert.deepEqual(
    Object.fromEntries(TASK_FIELDS.map((key) => [key, tasks[0][key]])),
    Object.fromEntries(TASK_FIELDS.map((key) => [key, defaults.task[key]])));
});
