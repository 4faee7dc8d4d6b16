/**
 * Draws the installable app's PNG icons (issue 29) from the favicon's shapes (public/favicon.svg:
 * the indigo tile with a white speech bubble), so the repository needs no image tool:
 *   public/icons/icon-192.png, icon-512.png        the tile with rounded corners ("any")
 *   public/icons/maskable-192.png, maskable-512.png full-bleed, the bubble inside the safe zone
 *   public/icons/badge-96.png                        the bubble alone, white on transparent (notification badge)
 * Run: node frontend/scripts/make-icons.mjs (the PNGs are committed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
const INDIGO = [0x4f, 0x46, 0xe5];
const WHITE = [0xff, 0xff, 0xff];

/** Inside a rounded rectangle (corner radii tl, tr, br, bl). */
function inRoundedRect(x, y, x0, y0, x1, y1, [tl, tr, br, bl]) {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const corner = (cx, cy, r) => (r > 0 ? (x - cx) ** 2 + (y - cy) ** 2 <= r * r : true);
  if (x < x0 + tl && y < y0 + tl) return corner(x0 + tl, y0 + tl, tl);
  if (x > x1 - tr && y < y0 + tr) return corner(x1 - tr, y0 + tr, tr);
  if (x > x1 - br && y > y1 - br) return corner(x1 - br, y1 - br, br);
  if (x < x0 + bl && y > y1 - bl) return corner(x0 + bl, y1 - bl, bl);
  return true;
}
const inTriangle = (x, y, [ax, ay], [bx, by], [cx, cy]) => {
  const s = (px, py, qx, qy, rx, ry) => (px - rx) * (qy - ry) - (qx - rx) * (py - ry);
  const d1 = s(x, y, ax, ay, bx, by);
  const d2 = s(x, y, bx, by, cx, cy);
  const d3 = s(x, y, cx, cy, ax, ay);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
};

/** The favicon's bubble in its 64-unit space: white body and tail, two indigo dots. */
function bubble(x, y) {
  const eye = (cx) => (x - cx) ** 2 + (y - 29) ** 2 <= 9;
  if (eye(27) || eye(37)) return 'eye';
  if (inRoundedRect(x, y, 18, 18, 46, 40, [4, 4, 4, 0]) || inTriangle(x, y, [18, 40], [28, 40], [18, 48])) return 'body';
  return null;
}

/** RGBA pixels of one icon: `shape(x, y)` in 64-unit space → [r, g, b, a] or null. 4×4 samples per pixel. */
function render(size, shape) {
  const px = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sj = 0; sj < n; sj++) {
        for (let si = 0; si < n; si++) {
          const c = shape(((i + (si + 0.5) / n) / size) * 64, ((j + (sj + 0.5) / n) / size) * 64);
          if (c) {
            r += c[0]; g += c[1]; b += c[2]; a += 255;
          }
        }
      }
      const k = (j * size + i) * 4;
      const count = a / 255;
      px[k] = count ? Math.round(r / count) : 0;
      px[k + 1] = count ? Math.round(g / count) : 0;
      px[k + 2] = count ? Math.round(b / count) : 0;
      px[k + 3] = Math.round(a / (n * n));
    }
  }
  return px;
}

function png(size, rgba) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let j = 0; j < size; j++) rgba.copy(rows, j * (size * 4 + 1) + 1, j * size * 4, (j + 1) * size * 4);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

const tile = (x, y) => {
  if (!inRoundedRect(x, y, 0, 0, 64, 64, [14, 14, 14, 14])) return null;
  const part = bubble(x, y);
  return part === 'body' ? WHITE : INDIGO;
};
// Maskable: the whole square is painted; the bubble shrunk to 70 % around its centre stays inside the 80 % safe circle.
const maskable = (x, y) => {
  const part = bubble(32 + (x - 32) / 0.7, 33 + (y - 33) / 0.7);
  return part === 'body' ? WHITE : INDIGO;
};
const badge = (x, y) => {
  const part = bubble(32 + (x - 32) / 1.6, 33 + (y - 33) / 1.6);
  return part === 'body' ? WHITE : null;
};

mkdirSync(out, { recursive: true });
for (const size of [192, 512]) {
  writeFileSync(join(out, `icon-${size}.png`), png(size, render(size, tile)));
  writeFileSync(join(out, `maskable-${size}.png`), png(size, render(size, maskable)));
}
writeFileSync(join(out, 'badge-96.png'), png(96, render(96, badge)));
console.log(`icons written to ${out}`);
