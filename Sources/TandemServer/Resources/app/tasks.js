// The account's tasks in this browser: the node log grouped by task, the state replayed from it
// (replay.js), and the producer side of Redo (spec §5 producer rules), as the CLI's TaskEditor
// makes them: a task is CREATE + CREATE_TODO; completing is COMPLETE_TODO + the next CREATE_TODO
// due `frequencyDays` later; an edit is one UPDATE of the changed fields, plus a SNOOZE for a new
// due date or notes; DELETE ends every head's branch. Every node is signed with this device's
// non-extractable key before it reaches the log.

import { makeNode, uuid, wallNow } from './redo.js';
import { compareNodes, Replayer } from './replay.js';
import { FIELD, TASK_PAYLOAD_FIELDS } from './fields.js';
import { fieldAccepts, validateNode, wallMillis, wallText } from './validate.js';

const DAY = 86400000;

export class TaskFieldError extends Error {}

/**
 * A task done once (issue 51 item 10): Redo v1 has no one-time value, so it is written with a
 * frequency of a century (TaskStore's OneTimeTask), and a century or more reads as once.
 */
export const ONE_TIME_FREQUENCY_DAYS = 36500;

/** Whether completing `task` archives it rather than scheduling its next todo. */
export function isOneTime(task) {
  return task.frequencyDays >= ONE_TIME_FREQUENCY_DAYS;
}

// How the editor names each field in its messages.
const LABELS = {
  title: 'The title', description: 'The description', privacy: 'Privacy', storyPoints: 'Story points',
  priority: 'Priority', frequencyDays: 'Repeat',
};

/** Refuses values the validator would refuse, with the field's name (as TaskEditor.check does). */
export function checkFields(fields) {
  for (const key of TASK_PAYLOAD_FIELDS) {
    if (fields[key] !== undefined && !fieldAccepts(FIELD[key], fields[key])) {
      throw new TaskFieldError(`${LABELS[key] ?? key} ${FIELD[key].rule}.`);
    }
  }
}

function defined(object) {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

export class TaskBook {
  /** `signer` = {privateKey, author}: the device key and the `author` member it signs as. */
  constructor(signer) {
    this.signer = signer;
    this.nodesByTask = new Map();
    this.byId = new Map();
    this.tasks = new Map();
    this.deleted = new Set();
  }

  /** Adds nodes already validated (the local log, or a pulled page); replays the tasks they touch. */
  add(nodes) {
    const touched = new Set();
    for (const node of nodes) {
      if (this.byId.has(node.id)) continue;
      this.byId.set(node.id, node);
      let list = this.nodesByTask.get(node.taskId);
      if (!list) this.nodesByTask.set(node.taskId, (list = []));
      list.push(node);
      touched.add(node.taskId);
    }
    for (const taskId of touched) this.replayTask(taskId);
    return touched;
  }

  /**
   * Tasks are independent (a parent in another task is never accepted), so each is replayed
   * from its own nodes alone, and a change replays only its task.
   */
  replayTask(taskId) {
    const result = new Replayer(this.nodesByTask.get(taskId) ?? []).run([]);
    const task = result.tasks[0];
    if (task) {
      this.tasks.set(taskId, task);
      this.deleted.delete(taskId);
    } else {
      this.tasks.delete(taskId);
      if (result.deletedTasks.length) this.deleted.add(taskId);
    }
  }

  /** Every live task. */
  all() {
    return [...this.tasks.values()];
  }

  node(taskId, id) {
    const node = this.byId.get(id);
    return node?.taskId === taskId ? node : undefined;
  }

  /**
   * A signed node, validated as the server and every other device will (spec §6.2) before it
   * reaches the log: a node this page cannot make right is refused here, not by the server.
   */
  async sign(taskId, action, payload, parent, now) {
    const parents = parent ? [parent.id] : [];
    const lamport = parent ? parent.timestamp.lamport + 1 : 1;
    const node = await makeNode(
      { taskId, action, payload, parents, lamport, wall: now, author: this.signer.author },
      this.signer.privateKey,
    );
    try {
      return await validateNode(node);
    } catch (error) {
      throw new TaskFieldError(`This change cannot be made: ${error.message}`);
    }
  }

  /** The next node of a task descends from its latest live node (spec §5). */
  latest(task) {
    return this.node(task.taskId, task.latestNodeId);
  }

  /** CREATE + CREATE_TODO; `due` (a wall time) defaults to `every` days (7) from now. */
  async addTask({ title, description, priority, storyPoints, privacy, frequencyDays, due }, now = wallNow()) {
    const fields = defined({
      title, description: description ? description : undefined, privacy, storyPoints, priority, frequencyDays,
    });
    checkFields({ ...fields, title });
    if (due !== undefined && wallMillis(due) === undefined) throw new TaskFieldError('The due date is not a date.');
    const taskId = uuid();
    const create = await this.sign(taskId, 'CREATE', fields, undefined, now);
    const deadline = due ?? wallText(wallMillis(now) + (frequencyDays ?? FIELD.frequencyDays.default) * DAY) ?? now;
    const todo = await this.sign(taskId, 'CREATE_TODO', { todoTaskId: uuid(), deadline }, create, now);
    return [create, todo];
  }

  /**
   * COMPLETE_TODO of the current todo, then the next todo `frequencyDays` after now; a task done
   * once (`isOneTime`) is archived instead, as Tandem's TaskEditor does.
   */
  async complete(task, now = wallNow()) {
    const todo = task.todoTasks.find((t) => t.guid === task.currentTodo);
    if (!todo) throw new TaskFieldError('This task has nothing open to complete.');
    const completion = await this.sign(task.taskId, 'COMPLETE_TODO', { todoTaskId: todo.guid, completed: now },
      this.latest(task), now);
    if (isOneTime(task)) return [completion, await this.sign(task.taskId, 'ARCHIVE', {}, completion, now)];
    const next = wallText(wallMillis(now) + task.frequencyDays * DAY) ?? now;
    const followUp = await this.sign(task.taskId, 'CREATE_TODO', { todoTaskId: uuid(), deadline: next }, completion, now);
    return [completion, followUp];
  }

  /**
   * One UPDATE carrying only the fields that change, then a SNOOZE when the due date moves or
   * notes are added (notes append to the current todo's, RES-8).
   */
  async edit(task, change, now = wallNow()) {
    checkFields(change);
    const fields = defined(Object.fromEntries(TASK_PAYLOAD_FIELDS.map((key) => [key, change[key] === task[key] ? undefined : change[key]])));
    const nodes = [];
    let parent = this.latest(task);
    if (Object.keys(fields).length) {
      parent = await this.sign(task.taskId, 'UPDATE', fields, parent, now);
      nodes.push(parent);
    }
    if (change.notes === '') change = { ...change, notes: undefined };
    if (change.due !== undefined || change.notes !== undefined) {
      const todo = task.todoTasks.find((t) => t.guid === task.currentTodo);
      if (!todo) throw new TaskFieldError('This task has no open todo to move or annotate.');
      if (change.due !== undefined && wallMillis(change.due) === undefined) {
        throw new TaskFieldError('The due date is not a date.');
      }
      const deadline = change.due ?? todo.deadline;
      if (deadline !== todo.deadline || change.notes !== undefined) {
        const payload = defined({ todoTaskId: todo.guid, newDeadline: deadline, notes: change.notes });
        nodes.push(await this.sign(task.taskId, 'SNOOZE', payload, parent, now));
      }
    }
    return nodes;
  }

  async snooze(task, deadline, now = wallNow()) {
    return this.edit(task, { due: deadline }, now);
  }

  async setArchived(task, archived, now = wallNow()) {
    return [await this.sign(task.taskId, archived ? 'ARCHIVE' : 'UNARCHIVE', {}, this.latest(task), now)];
  }

  /** A DELETE on every head, each listing its branch's ancestors root first (spec §5, §7.4). */
  async delete(task, now = wallNow()) {
    const nodes = [];
    for (const headID of task.heads) {
      const head = this.node(task.taskId, headID);
      if (!head) continue;
      const ancestry = this.ancestry(head).sort(compareNodes).map((node) => node.id);
      nodes.push(await this.sign(task.taskId, 'DELETE', { deletedChain: ancestry }, head, now));
    }
    return nodes;
  }

  /** The node and every ancestor present. */
  ancestry(node) {
    const found = new Map([[node.id, node]]);
    const stack = [node];
    while (stack.length) {
      for (const id of stack.pop().parents) {
        if (found.has(id)) continue;
        const parent = this.node(node.taskId, id);
        if (!parent) continue;
        found.set(id, parent);
        stack.push(parent);
      }
    }
    return [...found.values()];
  }
}
