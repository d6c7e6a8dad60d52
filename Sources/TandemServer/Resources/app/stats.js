// The figures `tandem tasks stats` computes (the Swift TaskStatistics), from replayed state, in
// the browser's time zone: completions, on-time rate, streaks, average lead time, overdue now,
// busiest weekday, completions per week for the last eight weeks, and how many tasks due within
// a week are expected to be late (each task's median lateness, blended with the overall pace
// while it has fewer than three completions).

import { wallMillis } from './validate.js';
import { currentTodoOf } from './query.js';

const DAY = 86400000;
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The local calendar day of an instant, as a day number (days since 1970-01-01). */
export function localDay(millis) {
  const date = new Date(millis);
  return Math.floor(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / DAY);
}

export function dayText(day) {
  return new Date(day * DAY).toISOString().slice(0, 10);
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
  for (const task of tasks) {
    const todo = currentTodoOf(task);
    if (task.archived || !todo) continue;
    const deadline = wallMillis(todo.deadline);
    if (deadline < now) overdueNow++;
    const samples = lateness.get(task.taskId) ?? [];
    const own = median(samples) ?? 0;
    const expectedLate = samples.length === 0 ? pace
      : samples.length < 3 ? Math.trunc((own * samples.length + pace * (3 - samples.length)) / 3) : own;
    const expected = Math.max(now, deadline + expectedLate);
    if (deadline >= now && deadline < now + 7 * DAY && expected > deadline) expectedOverdueNextWeek++;
  }
  return {
    completions,
    onTimeRate: completions ? onTime / completions : null,
    currentStreakDays: currentStreak,
    longestStreakDays: longestRun([...perDay.keys()].sort((a, b) => a - b)),
    averageLeadTimeHours: completions ? leadHours / completions : null,
    overdueNow,
    busiestWeekday: completions ? WEEKDAYS[weekdays.indexOf(most)] : null,
    expectedOverdueNextWeek,
    lastEightWeeks: [7, 6, 5, 4, 3, 2, 1, 0].map((week) => {
      const last = today - 7 * week;
      let count = 0;
      for (let day = last - 6; day <= last; day++) count += perDay.get(day) ?? 0;
      return { start: dayText(last - 6), completions: count };
    }),
  };
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
