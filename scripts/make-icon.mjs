// Draws the extension's icon (images/icon.png, 128x128) with no image library: two litmus strips,
// the adversarial arm red and the benign arm blue, on a dark rounded tile. The PNG is committed;
// run `node scripts/make-icon.mjs` only to change it.
import { writeFileSync, mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 128;
const SAMPLES = 4; // supersampling per axis, for smooth edges

/** Inside a rounded rectangle [x0,x1]x[y0,y1] with corner radius r. */
function inRoundRect(x, y, x0, y0, x1, y1, r) {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

const TILE = [30, 41, 59];
const PAPER = [241, 245, 249];
const RED = [225, 29, 72];
const BLUE = [37, 99, 235];

/** The colour at a point, or undefined outside the tile (transparent). */
function colour(x, y) {
  if (!inRoundRect(x, y, 4, 4, 124, 124, 22)) return undefined;
  // Two strips; each is paper on top and its arm's colour below, where it was dipped.
  for (const [x0, dip] of [[30, RED], [74, BLUE]]) {
    if (inRoundRect(x, y, x0, 20, x0 + 24, 108, 6)) return y > 58 ? dip : PAPER;
  }
  // A line across both strips: the level they were dipped to.
  if (y >= 57 && y <= 59 && x >= 22 && x <= 106) return PAPER;
  return TILE;
}

const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let py = 0; py < SIZE; py++) {
  raw[py * (SIZE * 4 + 1)] = 0; // filter: none
  for (let px = 0; px < SIZE; px++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SAMPLES; sy++) {
      for (let sx = 0; sx < SAMPLES; sx++) {
        const c = colour(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES);
        if (!c) continue;
        r += c[0]; g += c[1]; b += c[2]; a++;
      }
    }
    const o = py * (SIZE * 4 + 1) + 1 + px * 4;
    raw[o] = a ? Math.round(r / a) : 0;
    raw[o + 1] = a ? Math.round(g / a) : 0;
    raw[o + 2] = a ? Math.round(b / a) : 0;
    raw[o + 3] = Math.round((255 * a) / (SAMPLES * SAMPLES));
  }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
mkdirSync('images', { recursive: true });
writeFileSync('images/icon.png', png);
console.log(`images/icon.png: ${png.length} bytes`);
