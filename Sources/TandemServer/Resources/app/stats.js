// The figures `tandem tasks stats` computes (the Swift TaskStatistics and TaskInsights), from
// replayed state, in the browser's time zone: completions (per day, per priority), on-time rate,
// streaks, average lead time, overdue now, busiest weekday, each open task's expected completion
// (its median lateness, blended with the overall pace while it has fewer than three completions)
// and how many due within a week are likely late, the insight sentences, and completions per week
// for the last eight weeks. The object has the members of `tandem tasks stats --json`, plus
// `lastEightWeeks`.

import { wallMillis, wallText } from './validate.js';
import { currentTodoOf } from './query.js';

const DAY = 86400000;
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** The local calendar day of an instant, as a day number (days since 1970-01-01). */
export function localDay(millis) {
  const date = new Date(millis);
  const utc = new Date(0);
  utc.setUTCFullYear(date.getFullYear(), date.getMonth(), date.getDate()); // years < 100 too
  return Math.floor(utc.getTime() / DAY);
}

export function dayText(day) {
  return (wallText(day * DAY) ?? new Date(day * DAY).toISOString()).slice(0, 10);
}

function median(values) {
  if (!values.length) return null;
  const sorted = values.slice().sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : Math.floor((sorted[middle - 1] + sorted[middle]) / 2);
}

function longestRun(days) {
  let longest = 0;
  let run = 0;
  let previous = null;
  for (const day of days) {
    run = previous !== null && day === previous + 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
    previous = day;
  }
  return longest;
}

export function statistics(tasks, now) {
  const perDay = new Map();
  const byPriority = new Map();
  const weekdays = new Array(7).fill(0);
  const lateness = new Map();
  const allLateness = [];
  let completions = 0;
  let onTime = 0;
  let leadHours = 0;
  for (const task of tasks) {
    for (const todo of task.todoTasks) {
      if (todo.completed === null) continue;
      const completed = wallMillis(todo.completed);
      const deadline = wallMillis(todo.deadline);
      const late = completed - deadline;
      if (!lateness.has(task.taskId)) lateness.set(task.taskId, []);
      lateness.get(task.taskId).push(late);
      allLateness.push(late);
      completions++;
      const day = localDay(completed);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
      weekdays[(((day % 7) + 7 + 3) % 7)]++;
      if (completed <= deadline) onTime++;
      byPriority.set(task.priority, (byPriority.get(task.priority) ?? 0) + 1);
      leadHours += (completed - wallMillis(todo.wall)) / 3600000;
    }
  }
  const today = localDay(now);
  let currentStreak = 0;
  for (let day = perDay.has(today) ? today : today - 1; perDay.has(day); day--) currentStreak++;
  const most = Math.max(...weekdays);
  const pace = median(allLateness) ?? 0;
  let overdueNow = 0;
  let expectedOverdueNextWeek = 0;
  const predictions = [];
  for (const task of [...tasks].sort((a, b) => (a.taskId < b.taskId ? -1 : 1))) {
    const todo = currentTodoOf(task);
    if (task.archived || !todo) continue;
    const deadline = wallMillis(todo.deadline);
    if (deadline < now) overdueNow++;
    const samples = lateness.get(task.taskId) ?? [];
    const own = median(samples) ?? 0;
    const expectedLate = samples.length === 0 ? pace
      : samples.length < 3 ? Math.trunc((own * samples.length + pace * (3 - samples.length)) / 3) : own;
    const expected = Math.max(now, deadline + expectedLate);
    // Past what a wall time can write, the prediction is now (as WallTime's range makes it in Swift).
    predictions.push({ taskId: task.taskId, expectedCompletion: wallText(expected) ?? wallText(now) });
    if (deadline >= now && deadline < now + 7 * DAY && expected > deadline) expectedOverdueNextWeek++;
  }
  const stats = {
    completions,
    completionsByDay: Object.fromEntries([...perDay].sort(([a], [b]) => a - b).map(([day, n]) => [dayText(day), n])),
    onTimeRate: completions ? onTime / completions : null,
    currentStreakDays: currentStreak,
    longestStreakDays: longestRun([...perDay.keys()].sort((a, b) => a - b)),
    averageLeadTimeHours: completions ? leadHours / completions : null,
    overdueNow,
    byPriority: Object.fromEntries([...byPriority].sort(([a], [b]) => a - b).map(([p, n]) => [String(p), n])),
    busiestWeekday: completions ? WEEKDAYS[weekdays.indexOf(most)] : null,
    predictions,
    expectedOverdueNextWeek,
    insights: [],
    lastEightWeeks: [7, 6, 5, 4, 3, 2, 1, 0].map((week) => {
      const last = today - 7 * week;
      let count = 0;
      for (let day = last - 6; day <= last; day++) count += perDay.get(day) ?? 0;
      return { start: dayText(last - 6), completions: count };
    }),
  };
  stats.insights = insights(stats, perDay, today, byPriority);
  return stats;
}

const count = (value, one, many) => `${value} ${value === 1 ? one : many}`;
const percent = (value) => `${Math.round(value * 100)}%`;

/** The sentences `tandem tasks stats` prints under its figures (the Swift TaskInsights). */
function insights(stats, perDay, today, byPriority) {
  const sentences = [];
  if (stats.overdueNow > 0) sentences.push(`${count(stats.overdueNow, 'task is', 'tasks are')} overdue now.`);
  if (stats.expectedOverdueNextWeek > 0) {
    sentences.push(`${count(stats.expectedOverdueNextWeek, 'task', 'tasks')} due in the next 7 days ` +
      `${stats.expectedOverdueNextWeek === 1 ? 'is' : 'are'} likely to be late at your usual pace.`);
  }
  const rate = stats.onTimeRate;
  if (rate !== null && stats.completions >= 5 && rate < 0.5) {
    sentences.push(`Only ${percent(rate)} of completions were on time; later deadlines may fit better.`);
  }
  let thisWeek = 0;
  let lastWeek = 0;
  for (let day = today - 6; day <= today; day++) thisWeek += perDay.get(day) ?? 0;
  for (let day = today - 13; day <= today - 7; day++) lastWeek += perDay.get(day) ?? 0;
  if (lastWeek > 0 && thisWeek !== lastWeek) {
    const change = (thisWeek - lastWeek) / lastWeek;
    sentences.push(`You completed ${percent(Math.abs(change))} ${change > 0 ? 'more' : 'fewer'} todos in the last 7 days ` +
      'than in the 7 before.');
  } else if (lastWeek === 0 && thisWeek > 0) {
    sentences.push(`You completed ${count(thisWeek, 'todo', 'todos')} in the last 7 days, none in the 7 before.`);
  }
  if (stats.currentStreakDays >= 2) sentences.push(`You are on a ${stats.currentStreakDays}-day streak.`);
  if (stats.longestStreakDays >= 2 && stats.longestStreakDays > stats.currentStreakDays) {
    sentences.push(`Your longest streak is ${stats.longestStreakDays} days.`);
  }
  if (rate !== null && stats.completions >= 5 && rate >= 0.5) sentences.push(`${percent(rate)} of completions were on time.`);
  if (stats.busiestWeekday && stats.completions >= 7) {
    sentences.push(`${stats.busiestWeekday[0].toUpperCase() + stats.busiestWeekday.slice(1)} is your busiest day.`);
  }
  if (stats.completions >= 5) {
    // The most completions; a tie goes to the lower priority, as the Swift max(by:) leaves it.
    let top;
    for (const [priority, n] of byPriority) {
      if (!top || n > top[1] || (n === top[1] && priority < top[0])) top = [priority, n];
    }
    if (top) sentences.push(`Most completions are of priority ${top[0]} tasks.`);
  }
  if (stats.completions === 0) sentences.push('No completions in this period yet.');
  return sentences;
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(name, attributes, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** Completions per week as an SVG bar chart (the layout of `tandem tasks stats --svg`). */
export function weekChart(weeks) {
  const barWidth = 60;
  const gap = 20;
  const chartHeight = 200;
  const left = 40;
  const top = 40;
  const width = left + weeks.length * (barWidth + gap) + gap;
  const height = top + chartHeight + 60;
  const most = Math.max(1, ...weeks.map((week) => week.completions));
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'chart-title',
    class: 'chart' });
  root.append(svg('title', { id: 'chart-title' }, `Completions per week, last ${weeks.length} weeks`));
  root.append(svg('text', { x: left, y: 24, class: 'chart-heading' }, 'Completions per week'));
  root.append(svg('line', { x1: left, y1: top + chartHeight, x2: width - gap / 2, y2: top + chartHeight, class: 'axis' }));
  weeks.forEach((week, index) => {
    const x = left + gap / 2 + index * (barWidth + gap);
    const barHeight = Math.floor((week.completions * chartHeight) / most);
    const y = top + chartHeight - barHeight;
    const bar = svg('rect', { x, y, width: barWidth, height: barHeight, class: 'bar' });
    bar.append(svg('title', {}, `week of ${week.start}: ${week.completions}`));
    root.append(bar);
    root.append(svg('text', { x: x + barWidth / 2, y: y - 6, class: 'bar-value' }, String(week.completions)));
    root.append(svg('text', { x: x + barWidth / 2, y: top + chartHeight + 18, class: 'bar-label' }, week.start.slice(5)));
  });
  return root;
}
