// @ts-check
/**
 * Draws media/icon.png (128x128): stacked prompt blocks and a cache breakpoint. No art copied;
 * run `node media/make-icon.js` to regenerate it.
 */
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { Buffer } = require('node:buffer');

const W = 128;
const H = 128;
const px = new Uint8Array(W * H * 4);

/** @param {number} x @param {number} y @param {number[]} c */
function put(x, y, c) {
  const i = (y * W + x) * 4;
  const a = (c[3] ?? 255) / 255;
  for (let k = 0; k < 3; k++) px[i + k] = Math.round(px[i + k] * (1 - a) + c[k] * a);
  px[i + 3] = Math.max(px[i + 3], c[3] ?? 255);
}

/** Rounded rectangle with 4x4 supersampled edges. */
function rect(x0, y0, x1, y1, r, c) {
  for (let y = Math.floor(y0); y < Math.ceil(y1); y++) {
    for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
      let cover = 0;
      for (let sy = 0; sy < 4; sy++) {
        for (let sx = 0; sx < 4; sx++) {
          const px_ = x + (sx + 0.5) / 4;
          const py = y + (sy + 0.5) / 4;
          const dx = Math.max(x0 + r - px_, 0, px_ - (x1 - r));
          const dy = Math.max(y0 + r - py, 0, py - (y1 - r));
          if (px_ >= x0 && px_ <= x1 && py >= y0 && py <= y1 && dx * dx + dy * dy <= r * r) cover++;
        }
      }
      if (cover) put(x, y, [c[0], c[1], c[2], Math.round((cover / 16) * 255)]);
    }
  }
}

rect(4, 4, 124, 124, 22, [24, 33, 47]);
const blocks = [
  [22, 26, 98, [94, 167, 255]],
  [22, 46, 86, [94, 167, 255]],
  [22, 66, 106, [129, 230, 217]],
  [22, 86, 74, [203, 213, 225]],
];
for (const [x, y, w, c] of blocks) rect(x, y, w, y + 12, 5, c);
// the cache breakpoint: a bar after the cached blocks
rect(18, 80, 110, 83, 1.5, [251, 146, 60]);
rect(104, 22, 110, 83, 3, [251, 146, 60]);

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(W, 0);
ihdr.writeUInt32BE(H, 4);
ihdr[8] = 8;
ihdr[9] = 6;
const raw = Buffer.alloc(H * (W * 4 + 1));
for (let y = 0; y < H; y++) Buffer.from(px.buffer, y * W * 4, W * 4).copy(raw, y * (W * 4 + 1) + 1);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
fs.writeFileSync(path.join(__dirname, 'icon.png'), png);
