// query.js against Swift's TaskQuery (issue 45 item 4): every case of webapp-query-vectors.json,
// which RedoAppTests writes from TaskQuery over seeded random task sets, must select and order
// the same task ids after replay.js has replayed the same nodes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { app, vectors } from './setup.mjs';

const { replay } = await app('replay.js');
const { runQuery, defaultQuery, fold, words } = await app('query.js');
const file = vectors('webapp-query-vectors.json');

for (const [index, set] of file.sets.entries()) {
  test(`query vectors, set ${index}: ${set.cases.length} queries over ${set.nodes.length} nodes`, () => {
    const { tasks, rejected, pending } = replay(set.nodes);
    assert.deepEqual([rejected.length, pending.length], [0, 0], 'every node of the set is accepted');
    const accountKeys = new Set(set.accountKeys);
    for (const [number, item] of set.cases.entries()) {
      const query = { ...defaultQuery(), ...item.query };
      const got = runQuery(tasks, query, { now: item.now, accountKeys }).map((row) => row.task.taskId);
      assert.deepEqual(got, item.expected, `case ${number}: ${JSON.stringify(item.query)} at ${item.now}`);
    }
  });
}

test('search folding: case, accents, ligatures and decomposed marks fold alike', () => {
  for (const [a, b] of [['Café', 'CAFE'], ['e\u0301clair', 'ÉCLAIR'], ['Straße', 'straße'], ['NAÏVE', 'naive']]) {
    assert.equal(fold(a), fold(b), `${a} ~ ${b}`);
  }
  assert.deepEqual(words('  Café \t naïve\u2003x  '), ['cafe', 'naive', 'x']);
});
