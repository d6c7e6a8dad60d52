// Find and filter (the Redo-app issue's TaskQuery, same semantics as the Swift RedoApp library):
// text search over title, description and todo notes, case- and diacritic-insensitive, every
// word must match; status; priority range; due before/after, overdue, no due; mine/shared; sort
// by rank, due, priority, created, updated or title; limit. Rank is spec §10's recommended
// R = priority · U(t) · √storyPoints.

import { compareCodePoints } from './replay.js';
import { wallMillis } from './validate.js';

export const STATUSES = ['active', 'completed', 'archived', 'all'];
export const SORTS = ['rank', 'due', 'priority', 'created', 'updated', 'title'];

const folded = new Map();

/** Lowercased, decomposed, without combining marks (per character, as SearchText folds). */
export function fold(text) {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0);
    if (code < 0x80) {
      out += code >= 0x41 && code <= 0x5a ? String.fromCharCode(code | 0x20) : char;
      continue;
    }
    let value = folded.get(char);
    if (value === undefined) {
      value = char.toLowerCase().normalize('NFD').replace(/[\p{Mn}\p{Me}]/gu, '');
      folded.set(char, value);
    }
    out += value;
  }
  return out;
}

export function words(text) {
  return (text ?? '').split(/\p{White_Space}+/u).map(fold).filter((word) => word !== '');
}

export function urgency(days) {
  return Math.max(0.1, 1.0 + 10.0 / (1.0 + Math.exp(0.4 * days)));
}

/** R = priority · U(days until the current todo's deadline) · √storyPoints; null when not ranked. */
export function rank(task, now) {
  const todo = currentTodoOf(task);
  if (task.archived || !todo) return null;
  const days = (wallMillis(todo.deadline) - now) / 86400000;
  return task.priority * urgency(days) * Math.sqrt(task.storyPoints);
}

export const currentTodoOf = (task) => task.todoTasks.find((todo) => todo.guid === task.currentTodo);

const compareText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** A query with the defaults of TaskQuery: active tasks by rank. */
export function defaultQuery() {
  return { search: '', status: 'active', priorityMin: null, priorityMax: null, dueBefore: null, dueAfter: null,
    overdue: false, noDue: false, ownership: null, sort: 'rank', limit: null };
}

function matches(task, query, context) {
  const current = currentTodoOf(task);
  switch (query.status) {
    case 'active': if (task.archived || !current) return false; break;
    case 'completed': if (task.archived || current) return false; break;
    case 'archived': if (!task.archived) return false; break;
  }
  if (query.priorityMin !== null && task.priority < query.priorityMin) return false;
  if (query.priorityMax !== null && task.priority > query.priorityMax) return false;
  if (query.ownership) {
    const mine = context.accountKeys.has(task.createdBy);
    if (mine !== (query.ownership === 'mine')) return false;
  }
  if (query.noDue && current) return false;
  if (query.dueBefore !== null || query.dueAfter !== null || query.overdue) {
    if (!current) return false;
    const deadline = wallMillis(current.deadline);
    if (query.dueBefore !== null && !(deadline < wallMillis(query.dueBefore))) return false;
    if (query.dueAfter !== null && !(deadline > wallMillis(query.dueAfter))) return false;
    if (query.overdue && !(deadline < context.now)) return false;
  }
  return true;
}

function haystack(task) {
  let text = fold(task.title);
  if (task.description) text += '\n' + fold(task.description);
  for (const todo of task.todoTasks) if (todo.notes) text += '\n' + fold(todo.notes);
  return text;
}

/**
 * Rows {task, rank, due} of the tasks the query selects, in its order. `context` = {now
 * (milliseconds), accountKeys (Set of the account's userIds, for mine/shared)}.
 */
export function runQuery(tasks, query, context) {
  const needles = words(query.search);
  const rows = [];
  for (const task of tasks) {
    if (!matches(task, query, context)) continue;
    if (needles.length) {
      const text = haystack(task);
      if (!needles.every((word) => text.includes(word))) continue;
    }
    rows.push({ task, rank: rank(task, context.now), due: currentTodoOf(task)?.deadline ?? null });
  }
  const byID = (a, b) => compareText(a.task.taskId, b.task.taskId);
  const descendingLast = (a, b) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : b - a);
  const ascendingLast = (a, b) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : compareText(a, b));
  let order;
  switch (query.sort) {
    case 'due': order = (a, b) => ascendingLast(a.due, b.due) || byID(a, b); break;
    case 'priority': order = (a, b) => b.task.priority - a.task.priority || byID(a, b); break;
    case 'created': order = (a, b) => compareText(b.task.created, a.task.created) || byID(a, b); break;
    case 'updated': order = (a, b) => compareText(b.task.updated, a.task.updated) || byID(a, b); break;
    case 'title': {
      const keys = new Map(rows.map((row) => [row, fold(row.task.title)]));
      order = (a, b) => compareCodePoints(keys.get(a), keys.get(b)) || byID(a, b);
      break;
    }
    default: order = (a, b) => descendingLast(a.rank, b.rank) || byID(a, b);
  }
  rows.sort(order);
  return query.limit ? rows.slice(0, query.limit) : rows;
}
