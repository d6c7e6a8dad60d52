// The Redo task and todo fields, one row each (issue 46 item 5): Swift's RedoField table, which
// RedoProtocolTests write to Tests/TestSupport/Vectors/redo-fields.json; the Node suite
// (fields.test.mjs) and the browser test hold this copy to it, row for row. validate.js,
// replay.js and tasks.js take every field's name, bounds and default from here.

export const MAX_SAFE = 9007199254740991;

const row = (key, owner, type, rest) => ({
  key, owner, type, nonEmpty: false, nullable: false, inTaskPayload: false, merge: 'scalar', default: null, ...rest,
});

export const FIELDS = [
  row('title', 'task', 'string', { nonEmpty: true, inTaskPayload: true, default: '', rule: 'must not be empty' }),
  row('description', 'task', 'string', { inTaskPayload: true, default: '', rule: 'must be text' }),
  row('privacy', 'task', 'boolean', { inTaskPayload: true, default: false, rule: 'must be true or false' }),
  row('storyPoints', 'task', 'integer', {
    inTaskPayload: true, merge: 'numeric', default: 1, min: 0, max: MAX_SAFE, rule: 'must be 0 or more',
  }),
  row('priority', 'task', 'integer', {
    inTaskPayload: true, merge: 'numeric', default: 3, min: 1, max: 5, rule: 'must be 1–5',
  }),
  row('frequencyDays', 'task', 'integer', {
    inTaskPayload: true, merge: 'numeric', default: 7, min: 1, max: MAX_SAFE, rule: 'must be at least 1 day',
  }),
  row('archived', 'task', 'boolean', { default: false, rule: 'must be true or false' }),
  row('deadline', 'todo', 'time', { rule: 'must be a time' }),
  row('notes', 'todo', 'string', { rule: 'must be text' }),
  row('completed', 'todo', 'time', { nullable: true, rule: 'must be a time or null' }),
];

/** The rows by key. */
export const FIELD = Object.fromEntries(FIELDS.map((field) => [field.key, field]));
/** The task's fields a MERGE resolves (spec §9). */
export const TASK_FIELDS = FIELDS.filter((field) => field.owner === 'task').map((field) => field.key);
/** A todo's fields a MERGE resolves (spec §9), named in camel case like every other key here. */
export const todoFieldKeys = FIELDS.filter((field) => field.owner === 'todo').map((field) => field.key);
/** The fields CREATE and UPDATE carry (spec §5). */
export const TASK_PAYLOAD_FIELDS = FIELDS.filter((field) => field.inTaskPayload).map((field) => field.key);
