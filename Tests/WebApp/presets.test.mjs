// presets.js against Swift's preset rules (issue 45 item 4): every name of
// webapp-preset-vectors.json kept (trimmed) or refused as TaskPresets.check does, and every
// saved-query JSON accepted as the same page query, or refused, as TaskQuery decodes and
// validates it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { app, vectors } from './setup.mjs';

const { checkName, queryFromJSON } = await app('preset-query.js');
const { canonicalize } = await app('jcs.js');
const file = vectors('webapp-preset-vectors.json');

// Every disagreement at once, so one run shows them all.
test(`preset names: ${file.names.length} kept or refused as Swift does`, () => {
  const wrong = [];
  for (const item of file.names) {
    let kept = null;
    try {
      kept = checkName(item.name);
    } catch {
      kept = null;
    }
    if (kept !== item.kept) wrong.push(`${JSON.stringify(item.name)}: ${JSON.stringify(kept)}, Swift ${JSON.stringify(item.kept)}`);
  }
  assert.deepEqual(wrong, []);
});

test(`saved queries: ${file.queries.length} accepted or refused as Swift does`, () => {
  const wrong = [];
  for (const item of file.queries) {
    const got = queryFromJSON(JSON.parse(item.json)) ?? null;
    if (canonicalize(got) !== canonicalize(item.query)) {
      wrong.push(`${item.json}: ${canonicalize(got)}, Swift ${canonicalize(item.query)}`);
    }
  }
  assert.deepEqual(wrong, []);
});
