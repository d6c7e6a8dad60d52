// The web app's Redo code against the shared vectors (issue 45 item 4), in Node: canonical JSON,
// node bodies and content ids, the validator's verdicts, and every replay scenario in the given
// order and under seeded shuffles. (Signatures need WebCrypto's Ed25519, which the browser test
// checks in Chromium.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { app, vectors } from './setup.mjs';

const { canonicalize, parseStrict } = await app('jcs.js');
const redo = await app('redo.js');
const { validateNode } = await app('validate.js');
const { replay } = await app('replay.js');
const file = vectors('redo-vectors.json');

test('canonical JSON of every canonicalization vector', () => {
  for (const item of file.canonicalization) {
    assert.equal(canonicalize(JSON.parse(item.input)), item.canonical, item.name);
  }
});

test('bodies and content ids of the valid nodes; each validates', async () => {
  for (const item of file.validNodes) {
    const body = redo.body(item.node);
    assert.equal(canonicalize(body), item.canonicalBody, item.name);
    assert.equal(await redo.contentID(body), item.node.id, item.name);
    await validateNode(item.node, { requireSignature: false });
  }
});

test('every invalid node is refused with its code', async () => {
  for (const item of file.invalidNodes) {
    let code = 'accepted';
    try {
      const value = item.nodeJsonText !== undefined ? parseStrict(item.nodeJsonText) : item.node;
      await validateNode(value, { requireSignature: item.requireSignature ?? false });
    } catch (error) {
      code = error.code ?? 'E_SCHEMA_MISMATCH';
    }
    assert.ok([item.expectedCode, ...(item.acceptableCodes ?? [])].includes(code), `${item.name}: ${code}`);
  }
});

test('every replay scenario, in the given order and under five seeded shuffles', async () => {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const shuffled = (list) => {
    const copy = list.slice();
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  };
  const pairs = (list) => list.map((x) => (typeof x === 'string' ? x : [x.id, x.code]));
  for (const scenario of file.scenarios) {
    const orders = [['given', scenario.nodes], ...[1, 2, 3, 4, 5].map((n) => [`shuffle ${n}`, shuffled(scenario.nodes)])];
    for (const [order, nodes] of orders) {
      const valid = [];
      const rejections = [];
      for (const node of nodes) {
        try {
          valid.push(await validateNode(node, { requireSignature: false }));
        } catch (error) {
          rejections.push({ id: typeof node.id === 'string' ? node.id : '', code: error.code, detail: error.detail });
        }
      }
      const got = replay(valid, rejections);
      for (const key of ['accepted', 'rejected', 'pending', 'tombstones', 'pruned', 'deletedTasks']) {
        assert.deepEqual(pairs(got[key]), pairs(scenario.expected[key]), `${scenario.name} (${order}): ${key}`);
      }
      const tasks = got.tasks.map(({ updated, ...task }) => task);
      assert.equal(canonicalize(tasks), canonicalize(scenario.expected.tasks), `${scenario.name} (${order}): tasks`);
    }
  }
});
