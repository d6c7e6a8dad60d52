// The chat app's QR codes (issue 47 item 2) read back by an independent decoder, zbar's
// zbarimg: every length a version from 1 to 10 holds at level M, each a different text, and the
// receive addresses of both networks. Without zbarimg the test is skipped visibly; CI
// (TANDEM_REQUIRE_NODE=1) installs zbar-tools and fails without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { qrModules } = await import(new URL('../../Sources/TandemChatApp/Resources/qr.js', import.meta.url).href);
const { kas, compareRows } = await import(new URL('../../Sources/TandemChatApp/Resources/timeline.js', import.meta.url).href);

const zbar = spawnSync('zbarimg', ['--version']).status === 0;
const required = process.env.TANDEM_REQUIRE_NODE === '1';

/** The modules as a plain PBM image, 3 pixels a module, with the 4-module quiet zone. */
function pbm(modules) {
  const scale = 3;
  const side = (modules.length + 8) * scale;
  const rows = [];
  for (let y = 0; y < side; y += 1) {
    const r = Math.floor(y / scale) - 4;
    const row = [];
    for (let x = 0; x < side; x += 1) {
      const c = Math.floor(x / scale) - 4;
      row.push(modules[r]?.[c] ? 1 : 0);
    }
    rows.push(row.join(' '));
  }
  return `P1\n${side} ${side}\n${rows.join('\n')}\n`;
}

test('zbarimg is there where CI requires it', () => {
  if (required) assert.ok(zbar, 'zbarimg is missing: apt-get install zbar-tools');
});

test('every QR code reads back as its text', { skip: zbar ? false : 'needs zbarimg (apt-get install zbar-tools)' }, () => {
  const directory = mkdtempSync(join(tmpdir(), 'tandem-qr-'));
  try {
    const texts = [
      'kaspa:qypf5yzf4wr9lcaxkgk8zvtg0yxmhn5ycaknnyfp75x6hrwqf5lcjtcttcd0nza',
      'kaspatest:qqnapngv3zxp305qf06w6hpzmyxtx2r99jjhs04lu980xdyd2ulwwmx9evrfz',
      'é – ünïcode ✓',
    ];
    // Lengths across every version's boundary (v1-M holds 14 bytes … v10-M 213).
    for (let length = 1; length <= 213; length += length < 30 ? 1 : 7) {
      texts.push(Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7 + length) % 90))).join(''));
    }
    texts.push('y'.repeat(213));
    const sizes = new Set();
    texts.forEach((text, index) => {
      const modules = qrModules(text);
      sizes.add(modules.length);
      const file = join(directory, `${index}.pbm`);
      writeFileSync(file, pbm(modules));
      const read = execFileSync('zbarimg', ['-q', '--raw', file], { stdio: ['ignore', 'pipe', 'ignore'] }).toString('utf8');
      assert.equal(read.replace(/\n$/, ''), text, `length ${text.length}`);
    });
    assert.deepEqual([...sizes].sort((a, b) => a - b), [21, 25, 29, 33, 37, 41, 45, 49, 53, 57]);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('a text too long for version 10 is refused', () => {
  assert.throws(() => qrModules('z'.repeat(214)), /too long/);
});

test('amounts print as KAS without trailing zeros', () => {
  assert.equal(kas(0), '0');
  assert.equal(kas(150_000_000), '1.5');
  assert.equal(kas(1), '0.00000001');
  assert.equal(kas(2_100_000_000_000_000), '21000000');
});

test('rows order by block time, then timestamp, then id', () => {
  const row = (blockTime, timestamp, id) => ({ blockTime, timestamp, id });
  const rows = [row(2, 0, 'A'), row(1, 5, 'B'), row(1, 5, 'A'), row(1, 4, 'Z')];
  assert.deepEqual(rows.sort(compareRows), [row(1, 4, 'Z'), row(1, 5, 'A'), row(1, 5, 'B'), row(2, 0, 'A')]);
});
