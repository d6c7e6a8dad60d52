// A QR code (ISO/IEC 18004) of a short text, drawn by the page itself: byte mode, error
// correction level M, the smallest of versions 1–10 that holds the text (a Kaspa address needs
// version 5). The result is a square of booleans, true for a dark module.

// Per version, level M: [error-correction codewords per block, [data codewords of each block]].
const BLOCKS = [
  null,
  [10, [16]],
  [16, [28]],
  [26, [44]],
  [18, [32, 32]],
  [24, [43, 43]],
  [16, [27, 27, 27, 27]],
  [18, [31, 31, 31, 31]],
  [22, [38, 38, 39, 39]],
  [22, [36, 36, 36, 37, 37]],
  [26, [43, 43, 43, 43, 44]],
];
const ALIGNMENT = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];

// GF(256) over x^8 + x^4 + x^3 + x^2 + 1, as exponent and logarithm tables.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
for (let i = 0, value = 1; i < 255; i += 1) {
  EXP[i] = value;
  LOG[value] = i;
  value <<= 1;
  if (value & 0x100) value ^= 0x11d;
}
for (let i = 255; i < 512; i += 1) EXP[i] = EXP[i - 255];
const times = (a, b) => (a && b ? EXP[LOG[a] + LOG[b]] : 0);

/// The `count` Reed–Solomon check codewords of `data`.
function checkWords(data, count) {
  // The generator (x − α⁰)(x − α¹)…(x − α^(count−1)), highest power first without its leading 1.
  let generator = [1];
  for (let i = 0; i < count; i += 1) {
    const next = new Array(generator.length + 1).fill(0);
    generator.forEach((coefficient, j) => {
      next[j] ^= coefficient;
      next[j + 1] ^= times(coefficient, EXP[i]);
    });
    generator = next;
  }
  const remainder = new Array(count).fill(0);
  for (const word of data) {
    const factor = word ^ remainder.shift();
    remainder.push(0);
    for (let j = 0; j < count; j += 1) remainder[j] ^= times(generator[j + 1], factor);
  }
  return remainder;
}

/// The BCH remainder of `value` shifted past the generator's degree.
function bch(value, generator, degree) {
  let rest = value << degree;
  for (let bit = 31 - Math.clz32(rest); bit >= degree; bit -= 1) {
    if (rest & (1 << bit)) rest ^= generator << (bit - degree);
  }
  return (value << degree) | rest;
}

function codewords(bytes, version) {
  const [check, blocks] = BLOCKS[version];
  const capacity = blocks.reduce((sum, size) => sum + size, 0);
  const bits = [];
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; i -= 1) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  put(0, Math.min(4, capacity * 8 - bits.length));
  while (bits.length % 8) bits.push(0);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((byte, bit) => (byte << 1) | bit, 0));
  for (let pad = 0xec; data.length < capacity; pad ^= 0xec ^ 0x11) data.push(pad);
  // Split into blocks, then interleave data words, then check words.
  const split = [];
  let offset = 0;
  for (const size of blocks) {
    const block = data.slice(offset, offset + size);
    split.push({ block, check: checkWords(block, check) });
    offset += size;
  }
  const result = [];
  const longest = Math.max(...blocks);
  for (let i = 0; i < longest; i += 1) for (const { block } of split) if (i < block.length) result.push(block[i]);
  for (let i = 0; i < check; i += 1) for (const { check: words } of split) result.push(words[i]);
  return result;
}

const MASKS = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

class Grid {
  constructor(version) {
    this.size = version * 4 + 17;
    this.dark = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  set(row, column, dark) {
    this.dark[row][column] = dark;
    this.fixed[row][column] = true;
  }

  finder(row, column) {
    for (let dr = -1; dr <= 7; dr += 1) {
      for (let dc = -1; dc <= 7; dc += 1) {
        const r = row + dr;
        const c = column + dc;
        if (r < 0 || c < 0 || r >= this.size || c >= this.size) continue;
        const ring = Math.max(Math.abs(dr - 3), Math.abs(dc - 3));
        this.set(r, c, ring !== 2 && ring !== 4);
      }
    }
  }

  format(mask) {
    // Level M is 00: the five bits are the mask alone.
    const bits = bch(mask, 0x537, 10) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    const n = this.size;
    for (let i = 0; i <= 5; i += 1) this.set(i, 8, bit(i));
    this.set(7, 8, bit(6));
    this.set(8, 8, bit(7));
    this.set(8, 7, bit(8));
    for (let i = 9; i < 15; i += 1) this.set(8, 14 - i, bit(i));
    for (let i = 0; i < 8; i += 1) this.set(8, n - 1 - i, bit(i));
    for (let i = 8; i < 15; i += 1) this.set(n - 15 + i, 8, bit(i));
    this.set(n - 8, 8, true);
  }
}

function penalty(dark) {
  const n = dark.length;
  let score = 0;
  const lines = [];
  for (let i = 0; i < n; i += 1) {
    lines.push(dark[i]);
    lines.push(dark.map((row) => row[i]));
  }
  const finderLike = [true, false, true, true, true, false, true];
  for (const line of lines) {
    let run = 1;
    for (let i = 1; i <= n; i += 1) {
      if (i < n && line[i] === line[i - 1]) {
        run += 1;
      } else {
        if (run >= 5) score += run - 2;
        run = 1;
      }
    }
    for (let i = 0; i + 7 <= n; i += 1) {
      if (!finderLike.every((value, j) => line[i + j] === value)) continue;
      const lightBefore = [1, 2, 3, 4].every((j) => i - j < 0 || !line[i - j]);
      const lightAfter = [0, 1, 2, 3].every((j) => i + 7 + j >= n || !line[i + 7 + j]);
      if (lightBefore || lightAfter) score += 40;
    }
  }
  let darkCount = 0;
  for (let r = 0; r < n; r += 1) {
    for (let c = 0; c < n; c += 1) {
      if (dark[r][c]) darkCount += 1;
      if (r + 1 < n && c + 1 < n && dark[r][c] === dark[r][c + 1] && dark[r][c] === dark[r + 1][c] && dark[r][c] === dark[r + 1][c + 1]) score += 3;
    }
  }
  return score + 10 * Math.floor(Math.abs(darkCount * 100 - n * n * 50) / (n * n * 5));
}

/// The modules of `text`'s QR code; throws when it does not fit version 10.
export function qrModules(text) {
  const bytes = new TextEncoder().encode(text);
  const version = BLOCKS.findIndex((entry) => entry && entry[1].reduce((a, b) => a + b, 0) * 8 >= 4 + (entry === BLOCKS[10] ? 16 : 8) + bytes.length * 8);
  if (version < 1) throw new Error('too long for a QR code here');
  const words = codewords(bytes, version);
  let best = null;
  for (let mask = 0; mask < 8; mask += 1) {
    const grid = new Grid(version);
    const n = grid.size;
    grid.finder(0, 0);
    grid.finder(0, n - 7);
    grid.finder(n - 7, 0);
    for (let i = 8; i < n - 8; i += 1) {
      grid.set(6, i, i % 2 === 0);
      grid.set(i, 6, i % 2 === 0);
    }
    const centers = ALIGNMENT[version];
    for (const r of centers) {
      for (const c of centers) {
        if ((r === 6 && c === 6) || (r === 6 && c === centers.at(-1)) || (r === centers.at(-1) && c === 6)) continue;
        for (let dr = -2; dr <= 2; dr += 1) for (let dc = -2; dc <= 2; dc += 1) grid.set(r + dr, c + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
      }
    }
    if (version >= 7) {
      const bits = bch(version, 0x1f25, 12);
      for (let i = 0; i < 18; i += 1) {
        const dark = ((bits >>> i) & 1) === 1;
        grid.set(Math.floor(i / 3), n - 11 + (i % 3), dark);
        grid.set(n - 11 + (i % 3), Math.floor(i / 3), dark);
      }
    }
    grid.format(mask);
    // Data in two-column strips from the right, up then down, skipping the timing column.
    let index = 0;
    for (let right = n - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      const upward = ((right + 1) & 2) === 0;
      for (let step = 0; step < n; step += 1) {
        const r = upward ? n - 1 - step : step;
        for (let c = right; c > right - 2; c -= 1) {
          if (grid.fixed[r][c]) continue;
          const bit = index < words.length * 8 ? ((words[index >>> 3] >>> (7 - (index & 7))) & 1) === 1 : false;
          index += 1;
          grid.dark[r][c] = bit !== MASKS[mask](r, c);
        }
      }
    }
    const score = penalty(grid.dark);
    if (!best || score < best.score) best = { score, dark: grid.dark };
  }
  return best.dark;
}

/// Draws `text`'s QR code on `canvas`, `scale` pixels a module, with the four-module quiet zone.
export function drawQR(canvas, text, scale = 4) {
  const modules = qrModules(text);
  const side = (modules.length + 8) * scale;
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, side, side);
  context.fillStyle = '#000';
  modules.forEach((row, r) =>
    row.forEach((dark, c) => {
      if (dark) context.fillRect((c + 4) * scale, (r + 4) * scale, scale, scale);
    }),
  );
}
