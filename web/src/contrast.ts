// WCAG 2 contrast for the colours the graph paints on its canvas (text
// there has no CSS colour a checker could read): relative luminance of
// "#rrggbb" and "hsl(h, s%, l%)" colours, their contrast ratio, and the
// readable text colour for a fill.

/** [r, g, b] in 0..255 of a "#rgb", "#rrggbb", "rgb(r, g, b)" (alpha
 *  ignored) or "hsl(h, s%, l%)" colour. */
export function rgbOf(c: string): [number, number, number] {
  let m = c.match(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i);
  if (m) {
    const x = m[1].length === 3 ? m[1].split("").map((d) => d + d).join("") : m[1];
    return [parseInt(x.slice(0, 2), 16), parseInt(x.slice(2, 4), 16), parseInt(x.slice(4, 6), 16)];
  }
  m = c.match(/^hsl\(\s*([\d.]+)\s*,\s*([\d.]+)%\s*,\s*([\d.]+)%\s*\)$/i);
  if (m) {
    const hh = Number(m[1]) / 360;
    const s = Number(m[2]) / 100;
    const l = Number(m[3]) / 100;
    const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
    const p = 2 * l - q;
    const f = (t: number) => {
      t = ((t % 1) + 1) % 1;
      if (t < 1 / 6) return p + (q - p) * 6 * t;
      if (t < 1 / 2) return q;
      if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
      return p;
    };
    return [255 * f(hh + 1 / 3), 255 * f(hh), 255 * f(hh - 1 / 3)];
  }
  m = c.match(/^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/i);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  throw new Error(`contrast: cannot read colour ${c}`);
}

export function luminance(c: string): number {
  const lin = (v: number) => {
    v /= 255;
    return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  };
  const [r, g, b] = rgbOf(c);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: string, b: string): number {
  const x = luminance(a);
  const y = luminance(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

const inkCache = new Map<string, string>();

/** Black or white, whichever reads better on fill (at least 4.58:1 for
 *  any fill). */
export function inkOn(fill: string): string {
  let ink = inkCache.get(fill);
  if (!ink) {
    ink = contrast("#000000", fill) >= contrast("#ffffff", fill) ? "#000000" : "#ffffff";
    inkCache.set(fill, ink);
  }
  return ink;
}

/** The colour behind a transparent canvas: the first opaque background of
 *  it or its ancestors (what text drawn on it is read against). */
export function backdrop(el: Element): string {
  for (let e: Element | null = el; e; e = e.parentElement) {
    const bg = getComputedStyle(e).backgroundColor;
    const m = bg.match(/rgba?\(([^)]+)\)/);
    if (!m) continue;
    const p = m[1].split(/[ ,/]+/).filter((x) => x);
    if (p.length < 4 || Number(p[3]) >= 1) return `rgb(${p[0]}, ${p[1]}, ${p[2]})`;
  }
  return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "#121212" : "#ffffff";
}

/** The text colours a canvas view drew on its last draw, each with the
 *  colour under it (the contrast test reads them: canvas text has no CSS
 *  colour a checker could find). */
export class DrawnText {
  private seen = new Set<string>();
  clear(): void {
    this.seen.clear();
  }
  /** large: WCAG large text (≥ 24 px, or ≥ 18.66 px bold). */
  add(what: string, fg: string, bg: string, large = false): void {
    this.seen.add(`${what}|${fg}|${bg}|${large ? 1 : 0}`);
  }
  report(): { what: string; fg: string; bg: string; ratio: number; large: boolean }[] {
    return Array.from(this.seen, (k) => {
      const [what, fg, bg, large] = k.split("|");
      return { what, fg, bg, ratio: contrast(fg, bg), large: large === "1" };
    });
  }
}
