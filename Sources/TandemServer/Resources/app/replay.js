// Task state by replay (Redo spec §7), as the Swift Replayer does it: deduplicate and sort the
// nodes into the total order (lamport, wall, id), classify every node in one pass (accepted,
// rejected, pending; §6.3's contextual checks), then per task find the live set (§7.2 step 3,
// DELETE per branch) and apply the live nodes' effects (§5), MERGE by the three-way rule of §9.
// The input is nodes that passed standalone validation (validate.js); the result has the shape
// of the vectors' scenario `expected`.

import { FIELD, TASK_FIELDS, TASK_PAYLOAD_FIELDS, todoFieldKeys } from './fields.js';
import { fieldAccepts, wallMillis, wallText } from './validate.js';

const compareText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** The total order of spec §7.1. Walls and ids are fixed-width ASCII: string order is byte order. */
export function compareNodes(a, b) {
  return (
    a.timestamp.lamport - b.timestamp.lamport ||
    compareText(a.timestamp.wall, b.timestamp.wall) ||
    compareText(a.id, b.id)
  );
}

/** Byte order of UTF-8 text, which is code point order (UTF-16 order differs above U+E000). */
export function compareCodePoints(a, b) {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

const ACCEPTED = 1;
const REJECTED = 2;
const PENDING = 3;

/** Replays validated nodes; `standaloneRejections` are [{id, code, detail}] of nodes that failed §6.2. */
export function replay(nodes, standaloneRejections = []) {
  return new Replayer(nodes).run(standaloneRejections);
}

export class Replayer {
  constructor(input) {
    const sorted = input.slice().sort(compareNodes);
    this.nodes = [];
    this.position = new Map();
    for (const node of sorted) {
      if (this.position.has(node.id)) continue;
      this.position.set(node.id, this.nodes.length);
      this.nodes.push(node);
    }
    // Parent positions resolved once (−1 = not present).
    this.parents = this.nodes.map((node) => node.parents.map((id) => this.position.get(id) ?? -1));
  }

  run(standaloneRejections) {
    const result = {
      accepted: [], rejected: [], pending: [], tombstones: [], pruned: [], deletedTasks: [], tasks: [],
    };
    const invalid = new Set(standaloneRejections.map((verdict) => verdict.id));
    const status = new Uint8Array(this.nodes.length);
    const contexts = new Map();
    this.nodes.forEach((node, index) => {
      let context = contexts.get(node.taskId);
      if (!context) {
        context = { hasCreate: false, todos: new Set(), accepted: [] };
        contexts.set(node.taskId, context);
      }
      const verdict = this.classify(index, status, context, invalid);
      if (!verdict) {
        status[index] = ACCEPTED;
        context.accepted.push(index);
        result.accepted.push(node.id);
      } else {
        status[index] = verdict.pending ? PENDING : REJECTED;
        (verdict.pending ? result.pending : result.rejected).push({
          id: node.id, code: verdict.code, detail: verdict.detail,
        });
      }
    });
    // A copy that failed standalone checks does not outweigh a valid node with the same id.
    for (const verdict of standaloneRejections) {
      if (!this.position.has(verdict.id)) result.rejected.push(verdict);
    }
    for (const [taskId, context] of contexts) {
      if (context.accepted.length) this.reconstruct(taskId, context.accepted, result);
    }
    result.rejected.sort((a, b) => compareCodePoints(a.id, b.id));
    result.pending.sort((a, b) => compareCodePoints(a.id, b.id));
    result.tombstones.sort(compareText);
    result.pruned.sort(compareText);
    result.deletedTasks.sort(compareText);
    result.tasks.sort((a, b) => compareText(a.taskId, b.taskId));
    return result;
  }

  /** undefined = accepted; otherwise {code, detail, pending} (spec §7.2 step 2). */
  classify(index, status, context, invalid) {
    const node = this.nodes[index];
    let pending;
    let maxParentLamport = 0;
    node.parents.forEach((parentID, offset) => {
      if (pending?.final) return;
      const parent = this.parents[index][offset];
      if (parent < 0) {
        if (invalid.has(parentID)) {
          pending = { final: true, code: 'R_ANCESTOR_REJECTED', detail: `parent ${parentID} is invalid` };
        } else {
          pending ??= { pending: true, code: 'E_PARENT_NOT_FOUND', detail: `parent ${parentID} not present` };
        }
        return;
      }
      const parentNode = this.nodes[parent];
      if (parentNode.taskId !== node.taskId) {
        pending = { final: true, code: 'E_PARENT_NOT_FOUND', detail: `parent ${parentID} belongs to another task` };
      } else if (status[parent] === REJECTED) {
        pending = { final: true, code: 'R_ANCESTOR_REJECTED', detail: `parent ${parentID} rejected` };
      } else if (status[parent] === PENDING) {
        pending ??= { pending: true, code: 'R_ANCESTOR_PENDING', detail: `parent ${parentID} pending` };
      } else if (status[parent] === 0) {
        pending = { final: true, code: 'E_LAMPORT_VIOLATION', detail: `parent ${parentID} sorts after its child` };
      } else if (parentNode.action === 'DELETE') {
        pending = { final: true, code: 'R_DESCENDANT_OF_DELETE', detail: `parent ${parentID} is a DELETE tombstone` };
      } else {
        maxParentLamport = Math.max(maxParentLamport, parentNode.timestamp.lamport);
      }
    });
    if (pending) return pending;
    return this.contextualCheck(index, maxParentLamport, context);
  }

  /** Spec §6.3 for a node whose parents are all accepted. */
  contextualCheck(index, maxParentLamport, context) {
    const node = this.nodes[index];
    const reject = (code, detail) => ({ code, detail, pending: false });
    if (node.action === 'CREATE') {
      if (context.hasCreate) return reject('E_DUPLICATE_CREATE', 'a CREATE sorting earlier exists');
      context.hasCreate = true;
      return undefined;
    }
    if (node.timestamp.lamport !== maxParentLamport + 1) {
      return reject('E_LAMPORT_VIOLATION', `lamport must be ${maxParentLamport + 1}`);
    }
    const payload = node.data.payload;
    switch (node.action) {
      case 'CREATE_TODO':
        if (context.todos.has(payload.todoTaskId)) {
          return reject('E_INVALID_TODO_REF', 'todoTaskId already used in this task');
        }
        context.todos.add(payload.todoTaskId);
        return undefined;
      case 'COMPLETE_TODO':
      case 'SNOOZE':
        if (!context.todos.has(payload.todoTaskId)) {
          return reject('E_INVALID_TODO_REF', 'todoTaskId not created by a create-todo node');
        }
        return undefined;
      case 'DELETE': {
        const ancestors = this.ancestors(index);
        const chain = new Set();
        for (const id of payload.deletedChain) {
          const position = this.position.get(id);
          if (position === undefined) break;
          chain.add(position);
        }
        const same = chain.size === payload.deletedChain.length && chain.size === ancestors.size &&
          [...chain].every((position) => ancestors.has(position));
        return same ? undefined : reject('E_MISSING_DELETED_CHAIN', 'deletedChain must list exactly the ancestors of the DELETE');
      }
      case 'MERGE': {
        const problem = this.mergeProblem(node);
        return problem ? reject('E_SCHEMA_MISMATCH', problem) : undefined;
      }
      default:
        return undefined;
    }
  }

  /** MERGE context rules (§6.3): base a strict ancestor of every parent; chosenParent a parent. */
  mergeProblem(node) {
    const payload = node.data.payload;
    const base = this.position.get(payload.base);
    const notAncestor = 'merge base is not an ancestor of every parent';
    if (base === undefined) return notAncestor;
    for (const parent of node.parents) {
      const position = this.position.get(parent);
      if (position === undefined || !this.ancestors(position).has(base)) return notAncestor;
    }
    const resolutions = payload.resolutions ?? {};
    const chosen = [
      ...(resolutions.task ?? []).map((r) => r.chosenParent),
      ...(resolutions.todos ?? []).flatMap((todo) => todo.fields.map((r) => r.chosenParent)),
    ].filter((id) => id !== undefined);
    for (const id of chosen) {
      if (!node.parents.includes(id)) return `chosenParent ${id} is not a parent of the MERGE`;
    }
    return undefined;
  }

  /** Positions of every strict ancestor of the node at `index`. */
  ancestors(index) {
    const found = new Set();
    const stack = [index];
    while (stack.length) {
      for (const parent of this.parents[stack.pop()]) {
        if (parent >= 0 && !found.has(parent)) {
          found.add(parent);
          stack.push(parent);
        }
      }
    }
    return found;
  }

  /** Spec §7.2 steps 3–5 for one task: tombstones, live set, pruned nodes, then state. */
  reconstruct(taskId, accepted, result) {
    const deleted = new Set();
    for (const index of accepted) {
      const node = this.nodes[index];
      if (node.action !== 'DELETE') continue;
      result.tombstones.push(node.id);
      for (const id of node.data.payload.deletedChain) deleted.add(id);
    }
    // Walking backwards in total order sees every child before its parents.
    const live = new Set();
    let anySurviving = false;
    for (let i = accepted.length - 1; i >= 0; i--) {
      const index = accepted[i];
      const node = this.nodes[index];
      if (node.action === 'DELETE') continue;
      const surviving = !deleted.has(node.id);
      anySurviving ||= surviving;
      if (!surviving && !live.has(index)) continue;
      live.add(index);
      for (const parent of this.parents[index]) if (parent >= 0) live.add(parent);
    }
    const liveInOrder = [];
    for (const index of accepted) {
      if (live.has(index)) liveInOrder.push(index);
      else if (this.nodes[index].action !== 'DELETE') result.pruned.push(this.nodes[index].id);
    }
    const task = anySurviving ? this.replayState(liveInOrder) : undefined;
    if (!task) {
      result.deletedTasks.push(taskId);
      return;
    }
    const hasLiveChild = new Set();
    for (const index of liveInOrder) for (const parent of this.parents[index]) if (parent >= 0) hasLiveChild.add(parent);
    task.heads = liveInOrder.filter((index) => !hasLiveChild.has(index)).map((index) => this.nodes[index].id);
    task.latestNodeId = this.nodes[liveInOrder[liveInOrder.length - 1]].id;
    task.currentTodo = currentTodo(task)?.guid ?? null;
    result.tasks.push(task);
  }

  /** §5's effects over accepted nodes in total order, starting from their CREATE. */
  replayState(positions) {
    const first = this.nodes[positions[0]];
    if (!first || first.action !== 'CREATE') return undefined;
    const fields = first.data.payload;
    const task = {
      taskId: first.taskId,
      createdBy: first.author.userId,
      created: first.timestamp.wall,
      // Absent CREATE fields take their defaults (spec §5, RES-7).
      ...Object.fromEntries(
        TASK_FIELDS.map((key) => [key, (FIELD[key].inTaskPayload ? fields[key] : undefined) ?? FIELD[key].default]),
      ),
      todoTasks: [],
      currentTodo: null,
      heads: [first.id],
      latestNodeId: first.id,
      updated: first.timestamp.wall,
    };
    for (const index of positions.slice(1)) {
      const node = this.nodes[index];
      this.apply(node, task);
      if (node.timestamp.wall > task.updated) task.updated = node.timestamp.wall;
    }
    return task;
  }

  /** hydrate(X) of §9: the state after X and its ancestors in total order. */
  hydrate(id) {
    const index = this.position.get(id);
    if (index === undefined) return undefined;
    const positions = [...this.ancestors(index), index].sort((a, b) => a - b);
    return this.replayState(positions);
  }

  apply(node, task) {
    const payload = node.data.payload;
    const todo = () => task.todoTasks.find((t) => t.guid === payload.todoTaskId);
    switch (node.action) {
      case 'UPDATE':
        for (const key of TASK_PAYLOAD_FIELDS) {
          if (payload[key] !== undefined) task[key] = payload[key];
        }
        break;
      case 'CREATE_TODO':
        task.todoTasks.push({
          guid: payload.todoTaskId, nodeId: node.id, lamport: node.timestamp.lamport, wall: node.timestamp.wall,
          deadline: payload.deadline, notes: payload.notes ?? '', completed: null,
        });
        break;
      case 'COMPLETE_TODO': {
        const target = todo();
        if (!target) break;
        target.completed = payload.completed;
        target.notes = appendNotes(target.notes, payload.notes);
        break;
      }
      case 'SNOOZE': {
        const target = todo();
        if (!target) break;
        if (payload.newDeadline !== undefined) {
          target.deadline = payload.newDeadline;
        } else {
          // RES-10: N × 86 400 s in UTC; a deadline the format cannot write leaves it unchanged.
          target.deadline = wallText(wallMillis(target.deadline) + payload.daysToExtend * 86400000) ?? target.deadline;
        }
        target.notes = appendNotes(target.notes, payload.notes);
        break;
      }
      case 'ARCHIVE':
        task.archived = true;
        break;
      case 'UNARCHIVE':
        task.archived = false;
        break;
      case 'MERGE':
        new Merge(this, node).apply(task);
        break;
    }
  }
}

/** RES-8: notes are appended, newline-separated, skipping empty strings. */
function appendNotes(existing, notes) {
  if (!notes) return existing;
  return existing ? existing + '\n' + notes : notes;
}

/** The open todo with the greatest (lamport, wall, nodeId) (spec §8, RES-15). */
export function currentTodo(task) {
  let best;
  for (const todo of task.todoTasks) {
    if (todo.completed !== null) continue;
    if (best && compareTodo(todo, best) <= 0) continue;
    best = todo;
  }
  return best;
}

const compareTodo = (a, b) => a.lamport - b.lamport || compareText(a.wall, b.wall) || compareText(a.nodeId, b.nodeId);

/** A `manual` value of the field's type, or undefined when it does not fit (then lww applies). */
export function manualValue(value, key) {
  return FIELD[key] !== undefined && fieldAccepts(FIELD[key], value) ? value : undefined;
}

/** The three-way, per-field MERGE of spec §9 (RES-16). Absent values are `undefined`. */
class Merge {
  constructor(replayer, node) {
    this.replayer = replayer;
    this.node = node;
    this.spec = node.data.payload;
    const policy = this.spec.policy ?? {};
    this.defaultStrategy = policy.defaultStrategy ?? 'lww';
    this.tiebreakers = policy.lwwTiebreakers ?? ['lamport', 'wall', 'author'];
  }

  apply(task) {
    const base = this.replayer.hydrate(this.spec.base);
    if (!base) return;
    const sides = [];
    for (const parent of this.node.parents) {
      const index = this.replayer.position.get(parent);
      const state = index === undefined ? undefined : this.replayer.hydrate(parent);
      if (!state) return;
      sides.push({ head: this.replayer.nodes[index], state });
    }
    const resolutions = this.spec.resolutions ?? {};
    for (const field of TASK_FIELDS) {
      const resolution = (resolutions.task ?? []).findLast((r) => r.path === field);
      const value = this.resolve(field, base[field], sides, resolution, (side) => side.state[field]);
      if (value !== undefined) task[field] = value;
    }
    for (const entry of resolutions.todos ?? []) {
      const target = task.todoTasks.find((t) => t.guid === entry.todoTaskId);
      if (!target) continue;
      const baseTodo = base.todoTasks.find((t) => t.guid === entry.todoTaskId);
      for (const field of todoFieldKeys) {
        const resolution = entry.fields.findLast((r) => r.path === field);
        const read = (side) => side.state.todoTasks.find((t) => t.guid === entry.todoTaskId)?.[field];
        const value = this.resolve(field, baseTodo?.[field], sides, resolution, read);
        // A deadline is never cleared; `completed` may be (null).
        if (value !== undefined && !(field === 'deadline' && value === null)) target[field] = value;
      }
    }
  }

  resolve(field, base, sides, resolution, read) {
    const candidates = sides.filter((side) => read(side) !== undefined);
    if (resolution) return this.strategy(resolution.strategy, field, candidates, resolution, read);
    const changing = candidates.filter((side) => read(side) !== base);
    if (!changing.length) return base;
    if (changing.every((side) => read(side) === read(changing[0]))) return read(changing[0]);
    return this.strategy(this.defaultStrategy, field, changing, undefined, read);
  }

  strategy(strategy, field, candidates, resolution, read) {
    switch (strategy) {
      case 'manual': {
        if (resolution && Object.prototype.hasOwnProperty.call(resolution, 'value')) {
          const typed = manualValue(resolution.value, field);
          if (typed !== undefined) return typed;
        }
        break;
      }
      case 'ours': {
        const side = resolution?.chosenParent && candidates.find((s) => s.head.id === resolution.chosenParent);
        if (side) return read(side);
        break;
      }
      case 'theirs': {
        const side = resolution?.chosenParent && this.lastWriter(candidates.filter((s) => s.head.id !== resolution.chosenParent));
        if (side) return read(side);
        break;
      }
      case 'max':
      case 'min': {
        // Only a numeric field takes max or min (fields.js); the others fall back to lww.
        const numbers = candidates.map(read).filter((value) => typeof value === 'number');
        if (FIELD[field]?.merge === 'numeric' && numbers.length === candidates.length && numbers.length) {
          return strategy === 'max' ? Math.max(...numbers) : Math.min(...numbers);
        }
        break;
      }
    }
    const side = this.lastWriter(candidates);
    return side ? read(side) : undefined;
  }

  /** The side whose head is greatest by the policy's tiebreakers, then by id (spec §9). */
  lastWriter(sides) {
    const less = (a, b) => {
      for (const key of this.tiebreakers) {
        if (key === 'lamport' && a.head.timestamp.lamport !== b.head.timestamp.lamport) {
          return a.head.timestamp.lamport < b.head.timestamp.lamport;
        }
        if (key === 'wall' && a.head.timestamp.wall !== b.head.timestamp.wall) {
          return a.head.timestamp.wall < b.head.timestamp.wall;
        }
        if (key === 'author' && a.head.author.userId !== b.head.author.userId) {
          return a.head.author.userId < b.head.author.userId;
        }
      }
      return a.head.id < b.head.id;
    };
    let best;
    for (const side of sides) if (!best || less(best, side)) best = side;
    return best;
  }
}
