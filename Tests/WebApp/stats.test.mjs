// stats.js against Swift's TaskStatistics (issue 45 item 4): for each task set of
// webapp-query-vectors.json, the figures `statistics()` reports at several instants in five time
// zones (two of them change to summer time inside the sets' weeks, one by half an hour) must be
// those RedoAppTests wrote from TaskStatistics. The zone is the process's, as it is the
// browser's: TZ is set before each case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { app, vectors } from './setup.mjs';

const { replay } = await app('replay.js');
const { statistics } = await app('stats.js');
const file = vectors('webapp-query-vectors.json');
const zone = process.env.TZ;

/** Two averages summed in another order may differ in the last bits; counts and texts may not. */
function close(got, expected, where) {
  if (expected === null || got === null) return assert.equal(got, expected, where);
  assert.ok(Math.abs(got - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${where}: ${got} ≠ ${expected}`);
}

for (const [index, set] of file.sets.entries()) {
  test(`statistics, set ${index}: ${set.statistics.length} instants and zones`, () => {
    const { tasks } = replay(set.nodes);
    try {
      for (const item of set.statistics) {
        process.env.TZ = item.zone;
        const got = statistics(tasks, item.now);
        const where = `${item.zone} at ${new Date(item.now).toISOString()}`;
        const { onTimeRate, averageLeadTimeHours, ...exact } = item.expected;
        close(got.onTimeRate, onTimeRate, `${where}: onTimeRate`);
        close(got.averageLeadTimeHours, averageLeadTimeHours, `${where}: averageLeadTimeHours`);
        for (const [member, value] of Object.entries(exact)) {
          assert.deepEqual(got[member], value, `${where}: ${member}`);
        }
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
}
