// Time by hierarchy: a zoomable treemap of Myelin graph or name prefix →
// block → layer, sized by time (by layer count without a profile) and
// coloured by layer type with the graph's stable type colours. Drawn on a
// canvas (no per-layer DOM: 10^5 layers stay fast); the keyboard moves
// between the rectangles of the current level, Enter opens a group or
// selects a layer, Escape goes up.
import { h, clear, ellipsis, fmtMs, fmtPct, fmtInt, sizeCanvas, cssVar } from "./dom";
import { inkOn, DrawnText } from "./contrast";
import type { Model } from "./model";

export interface TNode {
  name: string;
  /** full path for people ("Myelin graph 0 / encoder / layer 3") */
  path: string;
  value: number;
  count: number; // layers under it
  children: TNode[] | null; // null for a layer
  layer: number; // -1 for a group
  parent: TNode | null;
  /** the type carrying most of the value under it (colour) */
  type: string;
  /** the lowest layer index under it (execution order of groups) */
  first: number;
}

/** Deepest name-prefix level used below the top level. */
const MAX_DEPTH = 6;

/** Character classes of a module path: 1 a word character
 *  ([A-Za-z0-9_-]), 2 a separator (/ . :), 0 anything else. */
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  CLASS[c] = /[A-Za-z0-9_-]/.test(ch) ? 1 : /[/.:]/.test(ch) ? 2 : 0;
}

/** The module path in a layer name, split into parts: the first source-op
 *  path of a fused or wrapped name ("{ForeignNode[/a/b...c]}",
 *  "PWN(/a/b, ...)", "x.weight + QuantizeLinear_3"), preferring one with
 *  "/" (Torch-TensorRT names start with "[KIND]-[aten_ops.x]-[/path]"). A
 *  path is a run of word characters and separators with at least one
 *  separator followed by a word character; its parts are its word runs. A
 *  name without a path is one part. One linear scan (the tree splits
 *  10^5 names). */
export function nameParts(name: string): string[] {
  const L = name.length;
  const cls = (i: number) => {
    const c = name.charCodeAt(i);
    return c < 128 ? CLASS[c] : 0;
  };
  const wordEnd = (i: number) => {
    while (i < L && cls(i) === 1) i++;
    return i;
  };
  const sepEnd = (i: number) => {
    while (i < L && cls(i) === 2) i++;
    return i;
  };
  let first: string[] | null = null;
  let p = 0;
  while (p < L) {
    const q = wordEnd(p);
    if (q >= L || cls(q) !== 2) {
      p = q + 1;
      continue;
    }
    let r = sepEnd(q);
    if (r >= L || cls(r) !== 1) {
      p = r;
      continue;
    }
    // A path starts at p: word runs joined by separator runs.
    const parts: string[] = [];
    let slash = false;
    if (q > p) parts.push(name.slice(p, q));
    for (let k = q; k < r; k++) if (name.charCodeAt(k) === 47) slash = true;
    let end = wordEnd(r);
    parts.push(name.slice(r, end));
    for (;;) {
      if (end >= L || cls(end) !== 2) break;
      r = sepEnd(end);
      if (r >= L || cls(r) !== 1) break;
      for (let k = end; k < r; k++) if (name.charCodeAt(k) === 47) slash = true;
      const e = wordEnd(r);
      parts.push(name.slice(r, e));
      end = e;
    }
    if (slash) return parts;
    if (!first) first = parts;
    p = end;
  }
  return first || [name];
}

/** Builds the tree: top level Myelin graph (when the layer has one) or the
 *  first name part, then name prefixes, then the layer. Chains of groups
 *  with one child are merged so every level splits something. */
export function buildTree(m: Model): TNode {
  const byTime = m.timed && m.avg.some((v) => v > 0);
  const root: TNode = { name: "engine", path: "engine", value: 0, count: 0, children: [], layer: -1, parent: null, type: "", first: 0 };
  const index = new Map<TNode, Map<string, TNode>>();
  const child = (p: TNode, key: string): TNode => {
    let kids = index.get(p);
    if (!kids) index.set(p, (kids = new Map()));
    let c = kids.get(key);
    if (!c) {
      c = { name: key, path: p === root ? key : p.path + " / " + key, value: 0, count: 0, children: [], layer: -1, parent: p, type: "", first: 0 };
      kids.set(key, c);
      p.children!.push(c);
    }
    return c;
  };
  const myelinName: string[] = [];
  for (let i = 0; i < m.n; i++) {
    const v = byTime ? (m.avg[i] > 0 ? m.avg[i] : 0) : 1;
    let at = root;
    if (m.subgraph[i]) at = child(at, m.subgraph[i]);
    const parts = nameParts(m.names[i]);
    const g = m.myelin[i];
    if (g >= 0) at = child(at, myelinName[g] || (myelinName[g] = "Myelin graph " + g));
    // The last part names the layer itself; the ones before are its blocks.
    for (let d = 0; d < Math.min(MAX_DEPTH, parts.length - 1); d++) at = child(at, parts[d]);
    at.children!.push({ name: m.names[i], path: m.names[i], value: v, count: 1, children: null, layer: i, parent: at, type: m.type[i], first: i });
  }
  finish(root);
  return binLevels(merge(root));
}

/** Sums values and counts bottom-up, picks each group's dominant type and
 *  sorts children largest first. Iterative: names can nest deeply. */
function finish(root: TNode): void {
  const post: TNode[] = [];
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    post.push(n);
    if (n.children) for (const c of n.children) if (c.children) stack.push(c);
  }
  const byType = new Map<string, number>();
  for (let k = post.length - 1; k >= 0; k--) summarise(post[k], byType);
}

/** A group's value, count, first layer and dominant type from its
 *  children, which it sorts largest first. */
function summarise(n: TNode, byType: Map<string, number>): void {
  byType.clear();
  n.value = 0;
  n.count = 0;
  n.first = Infinity;
  for (const c of n.children!) {
    n.value += c.value;
    n.count += c.count;
    n.first = Math.min(n.first, c.first);
    byType.set(c.type, (byType.get(c.type) || 0) + c.value + 1e-9 * c.count);
  }
  let best = "", bv = -1;
  for (const [t, v] of byType) if (v > bv) [best, bv] = [t, v];
  n.type = best;
  n.children!.sort((a, b) => b.value - a.value || b.count - a.count || (a.name < b.name ? -1 : 1));
}

/** Most parts one level shows before its parts are put into ranges. */
const MAX_PARTS = 24;
/** A part this share of its level or more gets a legible tile on a
 *  report-sized canvas (about 1/256 of ~1,200 × 500 px is 44 × 20 px, a
 *  labelled tile, with room to spare). */
const LEGIBLE_SHARE = 1 / 256;

/** Puts the parts of a level that has too many, each too small to carry a
 *  label (at 10^5 layers: ~1,000 Myelin graphs of a 1/1,000 share each),
 *  into consecutive ranges in execution order — "Myelin graph 0–22" —
 *  of at most MAX_PARTS each, so that every level draws labelled tiles. A
 *  level where the legible parts hold half the value or more is left as
 *  it is: its big parts show at once. */
function binLevels(root: TNode): TNode {
  const byType = new Map<string, number>();
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!n.children) continue;
    const kids = n.children;
    let legible = 0;
    if (kids.length > MAX_PARTS && n.value > 0) for (const c of kids) if (c.value >= LEGIBLE_SHARE * n.value) legible += c.value;
    if (kids.length > MAX_PARTS && legible < 0.5 * n.value) {
      const order = kids.slice().sort((a, b) => a.first - b.first);
      const per = Math.ceil(order.length / MAX_PARTS);
      const bins: TNode[] = [];
      for (let k = 0; k < order.length; k += per) {
        const part = order.slice(k, k + per);
        const name = rangeName(part[0].name, part[part.length - 1].name);
        const b: TNode = { name, path: !n.parent && n.path === "engine" ? name : n.path + " / " + name, value: 0, count: 0, children: part, layer: -1, parent: n, type: "", first: 0 };
        for (const c of part) c.parent = b;
        summarise(b, byType);
        bins.push(b);
      }
      n.children = bins;
      bins.sort((a, b) => b.value - a.value || a.first - b.first);
    }
    for (const c of n.children) stack.push(c);
  }
  return root;
}

/** The name of a range of parts from a to b: their common start once
 *  ("Myelin graph 0–22", "layers.3–9"; a number is never cut), else both
 *  names ("conv1 … fc"). */
export function rangeName(a: string, b: string): string {
  if (a === b) return a;
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  // Do not cut inside a number: "graph 1" and "graph 16" share "graph ".
  while (p > 0 && /[0-9]/.test(a[p - 1]) && (/[0-9]/.test(a[p] || "") || /[0-9]/.test(b[p] || ""))) p--;
  if (p < 3) return `${a} … ${b}`;
  return `${a}–${b.slice(p)}`;
}

/** Replaces each group that has a single group child by that child (with
 *  the joined name), top-down. */
function merge(root: TNode): TNode {
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!n.children) continue;
    for (let k = 0; k < n.children.length; k++) {
      let c = n.children[k];
      while (c.children && c.children.length === 1 && c.children[0].children) {
        const g = c.children[0];
        g.name = c.name + " / " + g.name;
        g.parent = n;
        c = g;
      }
      n.children[k] = c;
      c.parent = n;
      stack.push(c);
    }
  }
  // An engine with one top group starts inside it.
  let r = root;
  while (r.children && r.children.length === 1 && r.children[0].children) {
    r = r.children[0];
    r.parent = null;
  }
  return r;
}

export interface Rect { x: number; y: number; w: number; h: number; node: TNode; depth: number; open?: boolean; labelled?: boolean;
  /** the label drawn (fitted to the tile), and its width in px */
  label?: string; labelW?: number;
  /** the label before fitting */
  full?: string }

/** Squarified treemap of the children of a group inside a rectangle. */
export function squarify(kids: TNode[], x: number, y: number, w: number, h: number, total: number, out: (n: TNode, x: number, y: number, w: number, h: number) => void): void {
  const items = kids.filter((k) => k.value > 0);
  if (!items.length || w <= 0 || h <= 0 || total <= 0) return;
  const scale = (w * h) / total;
  // Items are sorted largest first, so a row's largest area is its first
  // and its smallest its last: each aspect test is O(1).
  let i = 0;
  while (i < items.length) {
    const short = Math.min(w, h);
    const first = items[i].value * scale;
    let sum = first;
    let worst = ratio(first, first, sum, short);
    let j = i + 1;
    while (j < items.length) {
      const a = items[j].value * scale;
      const r2 = ratio(first, a, sum + a, short);
      if (r2 > worst) break;
      sum += a;
      worst = r2;
      j++;
    }
    const thick = sum / short;
    let off = 0;
    for (let k = i; k < j; k++) {
      const n = items[k];
      const len = (n.value * scale) / thick;
      if (w >= h) out(n, x, y + off, thick, len);
      else out(n, x + off, y, len, thick);
      off += len;
    }
    if (w >= h) {
      x += thick;
      w -= thick;
    } else {
      y += thick;
      h -= thick;
    }
    i = j;
  }
}

function ratio(mx: number, mn: number, sum: number, short: number): number {
  const s2 = sum * sum, w2 = short * short;
  return Math.max((w2 * mx) / s2, s2 / (w2 * mn));
}

const HEADER = 18;
/** Rows of the text alternative (largest parts of the level). */
const TABLE_ROWS = 50;
/** Rectangles smaller than this (CSS px²) are not drawn one by one. */
const MIN_AREA = 6;
/** Area (px²) each part of a group needs for the group to be drawn open
 *  one level deeper: two lines (name and time) of about 12 characters, a
 *  90 × 34 tile. Smaller parts are read by opening the group. */
const OPEN_PART_AREA = 90 * 34;
/** Fewest characters of a name that make a label worth drawing. */
const MIN_LABEL_CHARS = 3;

export class HierarchyView {
  readonly el: HTMLElement;
  onSelect: (layer: number) => void = () => {};
  private root: TNode | null = null;
  private at: TNode | null = null;
  private canvas: HTMLCanvasElement;
  private crumbs: HTMLElement;
  private status: HTMLElement;
  private rects: Rect[] = [];
  /** index in at.children of the keyboard focus */
  private focus = 0;
  private selected = -1;
  private tip: HTMLElement;
  /** the text alternative: a table of the current level's parts */
  private table: HTMLTableSectionElement;
  private tableNote: HTMLElement;
  private listed: TNode | null = null;
  /** text drawn by the last draw (for the contrast test) */
  private drawn = new DrawnText();

  constructor(private m: Model) {
    this.crumbs = h("nav", { class: "tm-crumbs", id: "treemap-crumbs", attrs: { "aria-label": "Hierarchy path" } });
    this.canvas = h("canvas", { class: "tm-canvas", id: "treemap-canvas", attrs: { tabindex: "0", role: "application",
      "aria-roledescription": "treemap", "aria-describedby": "treemap-help" } });
    this.status = h("p", { class: "tm-status", id: "treemap-status", attrs: { "aria-live": "polite" } });
    this.tip = h("div", { class: "tm-tip", id: "treemap-tip", attrs: { role: "tooltip" } });
    this.tip.hidden = true;
    const help = h("p", { class: "muted", id: "treemap-help", text: "Area is time; colour is layer type. Click a group's header to open it, a layer to see its details. Keys: ← → move, Enter opens or selects, Escape goes up. The table below lists the same parts as text." });
    this.table = h("tbody", { id: "treemap-rows" });
    this.tableNote = h("p", { class: "muted", id: "treemap-table-note" });
    const unit = m.timed ? "Time" : "Layers";
    const table = h("table", { class: "tensors tm-table", id: "treemap-table" },
      h("caption", { class: "sr-only", text: "Parts of the current hierarchy level, largest first" }),
      h("thead", null, h("tr", null, h("th", { text: "Part", attrs: { scope: "col" } }), h("th", { class: "num", text: unit, attrs: { scope: "col" } }),
        h("th", { class: "num", text: "Share", attrs: { scope: "col" } }), h("th", { class: "num", text: "Layers", attrs: { scope: "col" } }), h("th", { text: "Mostly", attrs: { scope: "col" } }))),
      this.table);
    const list = h("details", { class: "tm-list", id: "treemap-list" }, h("summary", { id: "treemap-list-toggle", text: "Show this level as a table" }), table, this.tableNote);
    this.el = h("section", { class: "treemap", id: "treemap", attrs: { "aria-label": "Time by hierarchy" } }, this.crumbs, h("div", { class: "tm-wrap" }, this.canvas, this.tip), this.status, help, list);
    this.canvas.addEventListener("click", (ev) => this.click(ev));
    this.canvas.addEventListener("mousemove", (ev) => this.move(ev));
    this.canvas.addEventListener("mouseleave", () => {
      this.tip.hidden = true;
    });
    this.canvas.addEventListener("keydown", (ev) => this.key(ev));
    this.canvas.addEventListener("focus", () => this.draw());
    this.canvas.addEventListener("blur", () => this.draw());
  }

  /** Builds the tree on first show and (re)draws at the current size. */
  shown(): void {
    if (!this.root) {
      this.root = buildTree(this.m);
      this.at = this.root;
    }
    this.draw();
  }

  select(layer: number): void {
    this.selected = layer;
    if (this.root) this.draw();
  }

  /** For tests: the drawn rectangles of the current level (CSS px, canvas-relative). */
  report(): { at: string; rects: { name: string; layer: number; x: number; y: number; w: number; h: number; depth: number; value: number; open: boolean; labelled: boolean; label: string; labelW: number; full: string }[]; total: number; text: ReturnType<DrawnText["report"]> } {
    return { at: this.at ? this.at.path : "", total: this.at ? this.at.value : 0, text: this.drawn.report(),
      rects: this.rects.map((r) => ({ name: r.node.name, layer: r.node.layer, x: r.x, y: r.y, w: r.w, h: r.h, depth: r.depth, value: r.node.value, open: !!r.open, labelled: !!r.labelled, label: r.label || "", labelW: r.labelW || 0, full: r.full || "" })) };
  }

  private open(n: TNode): void {
    if (!n.children) return;
    this.at = n;
    this.focus = 0;
    this.draw();
    this.say(this.at.children![0]);
  }

  private up(): void {
    if (this.at && this.at.parent) {
      const from = this.at;
      this.at = this.at.parent;
      this.focus = Math.max(0, this.at.children!.indexOf(from));
      this.draw();
      this.say(from);
    }
  }

  private describe(n: TNode): string {
    const total = this.root!.value;
    const share = total > 0 ? fmtPct((100 * n.value) / total) : "";
    const size = this.m.timed ? `${fmtMs(n.value, 4)}, ${share} of the layer time` : `${fmtInt(n.count)} layer${n.count === 1 ? "" : "s"}`;
    return n.children ? `${n.name}: ${size}, ${fmtInt(n.count)} layers, mostly ${n.type}` : `${n.name}: ${size}, ${n.type}`;
  }

  private say(n: TNode | undefined): void {
    if (n) this.status.textContent = this.describe(n);
  }

  private crumbsFor(): void {
    clear(this.crumbs);
    const chain: TNode[] = [];
    for (let n: TNode | null = this.at; n; n = n.parent) chain.unshift(n);
    chain.forEach((n, i) => {
      if (i > 0) this.crumbs.appendChild(document.createTextNode(" › "));
      const last = i === chain.length - 1;
      this.crumbs.appendChild(h("button", { class: "linkish", text: ellipsis(i === 0 && !n.parent ? "all layers" : n.name, 60), title: n.path,
        attrs: last ? { "aria-current": "location" } : {}, on: { click: () => {
          this.at = n;
          this.focus = 0;
          this.draw();
        } } }));
    });
    const unit = this.m.timed ? fmtMs(this.at!.value, 4) : `${fmtInt(this.at!.count)} layers`;
    this.crumbs.appendChild(h("span", { class: "muted", text: `  ${unit}` }));
  }

  private draw(): void {
    if (!this.at) return;
    this.crumbsFor();
    if (this.listed !== this.at) this.listLevel();
    const cv = this.canvas;
    const W = Math.max(200, cv.parentElement!.clientWidth || 800);
    const H = Math.max(260, Math.min(620, Math.round(window.innerHeight * 0.62)));
    const g = sizeCanvas(cv, W, H);
    const ink = cssVar("--ink", "#1d2430");
    const panel = cssVar("--panel", "#fff");
    const head = cssVar("--head", "#eef2f6");
    const accent = cssVar("--accent", "#245f9e");
    g.clearRect(0, 0, W, H);
    this.drawn.clear();
    g.font = "12px system-ui, sans-serif";
    g.textBaseline = "top";
    this.rects = [];
    const at = this.at;
    const kids = at.children || [];
    const total = at.value;
    let hidden = 0;
    squarify(kids, 0, 0, W, H, total, (n, x, y, w, hh) => {
      // A group opens into its parts when they are big enough to be
      // labelled on average; otherwise it is one tile in its main type's
      // colour with its name (click to open it), not a grey box of specks.
      let open = !!n.children && w > 24 && hh > HEADER + 8;
      if (open && n.value > 0) {
        // Open when parts big enough to label would fill most of it.
        const inner = (w - 4) * (hh - HEADER - 2);
        let legible = 0, parts = 0;
        for (const c of n.children!) {
          const a = (inner * c.value) / n.value;
          if (a >= OPEN_PART_AREA) {
            legible += a;
            parts++;
          }
        }
        // One big part and specks say no more than the closed tile.
        open = parts >= 2 && legible >= 0.8 * inner;
      }
      this.rects.push({ x, y, w, h: hh, node: n, depth: 1, open });
      if (open) {
        squarify(n.children!, x + 2, y + HEADER, w - 4, hh - HEADER - 2, n.value, (c, cx, cy, cw, ch) => {
          if (cw * ch >= MIN_AREA) this.rects.push({ x: cx, y: cy, w: cw, h: ch, node: c, depth: 2 });
          else hidden++;
        });
      }
    });
    for (const r of this.rects) {
      const n = r.node;
      if (r.depth === 1 && r.open) {
        g.fillStyle = head;
        g.fillRect(r.x, r.y, r.w, r.h);
        g.strokeStyle = panel;
        g.lineWidth = 2;
        g.strokeRect(r.x + 1, r.y + 1, r.w - 2, r.h - 2);
        if (r.w > 30) {
          g.fillStyle = ink;
          g.font = "600 12px system-ui, sans-serif";
          g.fillText(fitMiddle(g, `${n.name} · ${this.share(n)}`, r.w - 8), r.x + 4, r.y + 3);
          this.drawn.add("group header", ink, head);
          g.font = "12px system-ui, sans-serif";
        }
        continue;
      }
      const fill = this.m.colors.get(n.type) || "#999";
      g.fillStyle = fill;
      g.fillRect(r.x, r.y, r.w, r.h);
      g.strokeStyle = panel;
      g.lineWidth = 1;
      g.strokeRect(r.x + 0.5, r.y + 0.5, Math.max(0, r.w - 1), Math.max(0, r.h - 1));
      // A label is drawn when the tile holds a line of text and at least
      // a few characters of the name fit: never a lone "…".
      // Cut in the middle: siblings share their start (a module path, "Myelin
      // graph "), their end tells them apart.
      // The layer count goes first when the name does not fit with it.
      let full = n.children ? `${n.name} (${fmtInt(n.count)})` : n.name;
      if (full !== n.name && g.measureText(full).width > r.w - 6) full = n.name;
      const label = r.w > 40 && r.h > 16 ? fitMiddle(g, full, r.w - 6) : "";
      r.labelled = label.replace("…", "").length >= MIN_LABEL_CHARS;
      if (r.labelled) {
        r.label = label;
        r.full = full;
        r.labelW = g.measureText(label).width;
        g.fillStyle = inkOn(fill);
        g.fillText(label, r.x + 3, r.y + 3);
        this.drawn.add(n.children ? "group label" : "layer label", inkOn(fill), fill);
        if (r.h > 32) g.fillText(fit(g, this.share(n), r.w - 6), r.x + 3, r.y + 18);
      }
    }
    // Selected layer and keyboard focus outlines.
    const mark = (n: TNode | undefined, colour: string, width: number) => {
      if (!n) return;
      for (const r of this.rects) {
        if (r.node !== n) continue;
        g.strokeStyle = colour;
        g.lineWidth = width;
        g.strokeRect(r.x + width / 2, r.y + width / 2, Math.max(0, r.w - width), Math.max(0, r.h - width));
      }
    };
    if (this.selected >= 0) mark(this.rects.find((r) => r.node.layer === this.selected)?.node, "#c0392b", 3);
    if (document.activeElement === cv) mark(kids[this.focus], accent, 3);
    cv.setAttribute("aria-label", `Treemap of ${at === this.root ? "the engine" : at.path}: ${kids.length} part${kids.length === 1 ? "" : "s"}, largest ${kids.length ? this.describe(kids[0]) : "none"}`);
    cv.dataset.hidden = String(hidden);
  }

  /** The text alternative of the canvas: the current level's parts as
   *  table rows (the largest TABLE_ROWS), each a button that opens the
   *  group or selects the layer, as Enter does on the canvas. */
  private listLevel(): void {
    const at = this.at!;
    this.listed = at;
    clear(this.table);
    const kids = at.children || [];
    const total = this.root!.value;
    for (const n of kids.slice(0, TABLE_ROWS)) {
      const open = h("button", { class: "linkish mono", text: ellipsis(n.name, 90), title: n.path,
        attrs: { "aria-label": `${n.children ? "Open" : "Select layer"} ${n.name}` },
        on: { click: () => {
          if (n.children) this.open(n);
          else {
            this.selected = n.layer;
            this.onSelect(n.layer);
            this.draw();
          }
        } } });
      this.table.appendChild(h("tr", { attrs: { "data-layer": String(n.layer) } },
        h("td", null, open, n.children ? h("span", { class: "muted", text: " ▸" }) : null),
        h("td", { class: "num", text: this.m.timed ? fmtMs(n.value, 4) : fmtInt(n.count) }),
        h("td", { class: "num", text: total > 0 ? fmtPct((100 * n.value) / total) : "" }),
        h("td", { class: "num", text: fmtInt(n.count) }),
        h("td", { class: "mono", text: n.type })));
    }
    const more = kids.length - Math.min(kids.length, TABLE_ROWS);
    let rest = 0;
    for (const n of kids.slice(TABLE_ROWS)) rest += n.value;
    this.tableNote.textContent = more > 0 ? `… and ${fmtInt(more)} smaller part${more === 1 ? "" : "s"} (${this.m.timed ? fmtMs(rest, 4) : fmtInt(rest) + " layers"}); open a group to list its parts.` : "";
    this.tableNote.hidden = more <= 0;
  }

  private share(n: TNode): string {
    const t = this.root!.value;
    return this.m.timed ? `${fmtMs(n.value, 3)} · ${fmtPct(t > 0 ? (100 * n.value) / t : 0)}` : `${fmtInt(n.count)} layers`;
  }

  private hit(ev: MouseEvent): Rect | null {
    const b = this.canvas.getBoundingClientRect();
    const x = ev.clientX - b.left, y = ev.clientY - b.top;
    let found: Rect | null = null;
    for (const r of this.rects) if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h && (!found || r.depth > found.depth)) found = r;
    return found;
  }

  private click(ev: MouseEvent): void {
    const r = this.hit(ev);
    if (!r) return;
    const n = r.node;
    if (!n.children) {
      this.selected = n.layer;
      this.onSelect(n.layer);
      this.draw();
    } else this.open(n);
  }

  private move(ev: MouseEvent): void {
    const r = this.hit(ev);
    if (!r) {
      this.tip.hidden = true;
      return;
    }
    this.tip.hidden = false;
    this.tip.textContent = this.describe(r.node) + (r.node.children ? " — click to open" : " — click for details");
    const b = this.canvas.getBoundingClientRect();
    const x = ev.clientX - b.left, y = ev.clientY - b.top;
    this.tip.style.left = Math.min(x + 14, b.width - 260) + "px";
    this.tip.style.top = y + 16 + "px";
  }

  private key(ev: KeyboardEvent): void {
    const kids = this.at?.children || [];
    if (!kids.length) return;
    let handled = true;
    switch (ev.key) {
      case "ArrowRight":
      case "ArrowDown":
        this.focus = (this.focus + 1) % kids.length;
        break;
      case "ArrowLeft":
      case "ArrowUp":
        this.focus = (this.focus - 1 + kids.length) % kids.length;
        break;
      case "Home":
        this.focus = 0;
        break;
      case "End":
        this.focus = kids.length - 1;
        break;
      case "Enter":
      case " ": {
        const n = kids[this.focus];
        if (n.children) this.open(n);
        else {
          this.selected = n.layer;
          this.onSelect(n.layer);
        }
        break;
      }
      case "Escape":
      case "Backspace":
        this.up();
        break;
      default:
        handled = false;
    }
    if (!handled) return;
    ev.preventDefault();
    this.draw();
    this.say(this.at!.children![this.focus]);
  }
}

/** s with its middle replaced by … to fit width px in the context's
 *  font: a third of the kept characters from its start, the rest from its
 *  end ("Myel…765–809 (4,185)"); "" when not even two fit. */
function fitMiddle(g: CanvasRenderingContext2D, s: string, width: number): string {
  if (g.measureText(s).width <= width) return s;
  const cut = (k: number) => {
    const head = Math.ceil(k / 3);
    return s.slice(0, head) + "…" + s.slice(s.length - (k - head));
  };
  let lo = 0, hi = s.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (g.measureText(cut(mid)).width <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo >= 2 ? cut(lo) : "";
}

/** s shortened with … to fit width px in the context's font. */
function fit(g: CanvasRenderingContext2D, s: string, width: number): string {
  if (g.measureText(s).width <= width) return s;
  let lo = 0, hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (g.measureText(s.slice(0, mid) + "…").width <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo > 0 ? s.slice(0, lo) + "…" : "";
}
