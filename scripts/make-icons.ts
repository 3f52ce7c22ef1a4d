/**
 * `npm run icons`: draws the app's icons into build/icons/ (committed; run again after a change
 * here). No image library: shapes are signed distances, sampled 4x4 per pixel for smooth edges,
 * and the PNG is written with node:zlib.
 *
 *   build/icons/icon.png                     512 x 512, the app icon electron-builder converts
 *   build/icons/tray/<status>.png, @2x.png   16 and 32 px, one per tray status (tray-status.ts)
 *
 * The mark is the dashboard's logo (a moon on the brand colour: the reaper puts apps to sleep); a
 * tray status other than "ok" adds a badge: red with "!" (an app in Error), grey base and pause bars
 * (the kill switch), amber with a dash (dry-run), blue with a ring (apps in transit).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';

type Rgb = [number, number, number];
/** Distance to a shape's edge in units of the icon's size: negative inside. */
type Shape = (x: number, y: number) => number;

const hex = (h: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;

const circle =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    Math.hypot(x - cx, y - cy) - r;
const minus =
  (a: Shape, b: Shape): Shape =>
  (x, y) =>
    Math.max(a(x, y), -b(x, y));
const union =
  (...shapes: Shape[]): Shape =>
  (x, y) =>
    Math.min(...shapes.map((s) => s(x, y)));
/** A rectangle with rounded corners: centre, half sizes, corner radius. */
const rect =
  (cx: number, cy: number, hw: number, hh: number, r = 0): Shape =>
  (x, y) => {
    const dx = Math.abs(x - cx) - hw + r;
    const dy = Math.abs(y - cy) - hh + r;
    return Math.hypot(Math.max(dx, 0), Math.max(dy, 0)) + Math.min(Math.max(dx, dy), 0) - r;
  };

interface Layer {
  shape: Shape;
  color: Rgb;
}

const BRAND = hex('#5b4bd6');
const PAUSED = hex('#6b7280');
const WHITE: Rgb = [255, 255, 255];

const disc = circle(0.5, 0.5, 0.47);
const moon = minus(circle(0.46, 0.52, 0.27), circle(0.6, 0.4, 0.23));

const BADGE = { cx: 0.75, cy: 0.75, r: 0.23 };
const badgeRing = circle(BADGE.cx, BADGE.cy, BADGE.r + 0.06);
const badge = circle(BADGE.cx, BADGE.cy, BADGE.r);

const STATUSES = {
  ok: { base: BRAND, badge: null },
  error: {
    base: BRAND,
    badge: {
      color: hex('#d92d20'),
      glyph: union(
        rect(BADGE.cx, BADGE.cy - 0.04, 0.035, 0.1, 0.03),
        circle(BADGE.cx, BADGE.cy + 0.12, 0.04),
      ),
    },
  },
  paused: {
    base: PAUSED,
    badge: {
      color: hex('#344054'),
      glyph: union(
        rect(BADGE.cx - 0.06, BADGE.cy, 0.035, 0.11, 0.01),
        rect(BADGE.cx + 0.06, BADGE.cy, 0.035, 0.11, 0.01),
      ),
    },
  },
  'dry-run': {
    base: BRAND,
    badge: { color: hex('#dc8a00'), glyph: rect(BADGE.cx, BADGE.cy, 0.12, 0.035, 0.03) },
  },
  transit: {
    base: BRAND,
    badge: {
      color: hex('#1570ef'),
      glyph: minus(circle(BADGE.cx, BADGE.cy, 0.12), circle(BADGE.cx, BADGE.cy, 0.06)),
    },
  },
} as const;

function layers(status: keyof typeof STATUSES, withBadge: boolean): Layer[] {
  const s = STATUSES[status];
  const out: Layer[] = [];
  // The badge's ring is cut out of the disc, so it reads on any panel colour.
  const base = s.badge && withBadge ? minus(disc, badgeRing) : disc;
  out.push({ shape: base, color: s.base }, { shape: moon, color: WHITE });
  if (s.badge && withBadge) {
    out.push({ shape: badge, color: s.badge.color }, { shape: s.badge.glyph, color: WHITE });
  }
  return out;
}

/** RGBA pixels of the layers at a size, 4x4 samples per pixel. */
function render(size: number, drawn: Layer[]): Buffer {
  const px = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let pxX = 0; pxX < size; pxX++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (pxX + (sx + 0.5) / n) / size;
          const y = (py + (sy + 0.5) / n) / size;
          // Composite the layers front to back over transparency.
          let cr = 0;
          let cg = 0;
          let cb = 0;
          let ca = 0;
          for (const layer of drawn) {
            if (layer.shape(x, y) > 0) continue;
            [cr, cg, cb] = layer.color;
            ca = 1;
          }
          r += cr * ca;
          g += cg * ca;
          b += cb * ca;
          a += ca;
        }
      }
      const i = (py * size + pxX) * 4;
      // Colours are averaged over the covered samples only (no dark fringe at the edge).
      px[i] = a ? Math.round(r / a) : 0;
      px[i + 1] = a ? Math.round(g / a) : 0;
      px[i + 2] = a ? Math.round(b / a) : 0;
      px[i + 3] = Math.round((a / (n * n)) * 255);
    }
  }
  return px;
}

function png(size: number, rgba: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const icons = join(root, 'build', 'icons');
mkdirSync(join(icons, 'tray'), { recursive: true });
writeFileSync(join(icons, 'icon.png'), png(512, render(512, layers('ok', false))));
for (const status of Object.keys(STATUSES) as (keyof typeof STATUSES)[]) {
  writeFileSync(join(icons, 'tray', `${status}.png`), png(16, render(16, layers(status, true))));
  writeFileSync(join(icons, 'tray', `${status}@2x.png`), png(32, render(32, layers(status, true))));
}
console.log(`icons written to ${icons}`);
