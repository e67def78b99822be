// The interactive graph: canvas rendering of a layout with zoom, pan,
// click-to-select, search, colouring by type or time, and collapsed groups
// for big engines that expand when clicked.
import { h, clear, ellipsis, fmtMs, fmtPct } from "./dom";
import { groupLayers, layout, layoutDagre, NODE_H, NODE_W, type Grouping, type Layout } from "./layout";
import { distinctIds, type Model } from "./model";
import { contrast, inkOn } from "./contrast";

/** Smallest zoom at which node names (11 px) are legible: the graph opens
 *  whole when it fits at this zoom or more, else on its slowest region at
 *  1:1 (and a node selected from elsewhere is shown at least this large). */
export const LEGIBLE_SCALE = 0.72;

/** Layouts still being computed off the main thread, over every graph of
 *  the page: body[data-layout] is "pending" while there are some. */
let pendingLayouts = 0;

function layoutPending(d: number): void {
  pendingLayouts += d;
  document.body.dataset.layout = pendingLayouts > 0 ? "pending" : "done";
  if (!pendingLayouts) window.__trtperfLayoutDone = window.__trtperfLayoutDone || performance.now();
}

/** Engines above this many layers start grouped. */
export const COLLAPSE_ABOVE = 2000;
const GROUP_TARGET = 600;
/** Largest minimap size in CSS pixels. */
const MINI_W = 160;
const MINI_H = 200;
const MINI_MIN_W = 48;


/** Fixed colours per precision (light enough for dark text). */
const PRECISION: Record<string, string> = {
  FP32: "#8fb8e8", TF32: "#a9c7ee", FP16: "#8fd19e", BF16: "#b6e3a0", FP8: "#d3a6e8", FP4: "#e8a6d6",
  INT8: "#f5b971", INT4: "#f2d06b", INT32: "#c9c9c9", INT64: "#b0b0b0", BOOL: "#e0d2b0", Mixed: "#e8e39a",
};

export function precisionColor(p: string): string {
  return PRECISION[p] || PRECISION[p.toUpperCase()] || "#d9d9d9";
}

/** A tensor label "dims|label" as drawn on an edge: "1×64×56×56 fp16:chw32".
 *  The format label is the analysis' (layerfacts.FormatLabel, the command
 *  line's vocabulary), written by the Go side; nothing is parsed here. */
export function shortLabel(label: string): string {
  const bar = label.indexOf("|");
  return bar >= 0 ? (label.slice(0, bar) + " " + label.slice(bar + 1)).trim() : label;
}

export class GraphView {
  readonly el: HTMLElement;
  private m: Model;
  private canvas: HTMLCanvasElement;
  private ctx: CanvasRenderingContext2D;
  private info: HTMLElement;
  private legend: HTMLElement;
  private grouping: Grouping | null = null;
  private expanded: Uint8Array | null = null;
  private lay!: Layout;
  private s = 1;
  private tx = 0;
  private ty = 0;
  private w = 0;
  private hgt = 0;
  private colorBy: "type" | "time" | "precision" = "type";
  private typeColor = new Map<string, string>();
  private types: string[] = []; // present types, most frequent first (legend order only)
  private conv: Uint8Array; // per layer: a storage conversion
  private tip: HTMLElement;
  private alt: HTMLElement;
  private selected = -1;
  private highlight: Set<number> | null = null;
  /** highlighted layers per group, so a collapsed group can show that it holds some */
  private hlCount: Int32Array | null = null;
  private marks: HTMLElement;
  private mini: HTMLCanvasElement;
  private miniBase: HTMLCanvasElement | null = null; // node boxes, redrawn only when the layout or highlight changes
  private miniKx = 1; // minimap pixels per layout unit
  private miniKy = 1;
  private frame = 0;
  private fitted = false;
  private timeSorted: Float64Array | null = null;
  /** the user zoomed or panned since the view was last set */
  private moved = false;
  /** relayout count: a late dagre result for an older layout is dropped */
  private layoutGen = 0;
  private searchHits: number[] = [];
  private searchAt = -1;
  private lastQuery = "";
  /** text drawn by the last draw(): "what|text colour|fill" (for the contrast test) */
  private drawnText = new Set<string>();
  onSelect: (layer: number) => void = () => {};

  constructor(m: Model) {
    this.m = m;
    this.types = distinctIds(m, m.typeId);
    this.typeColor = m.colors;
    // Conversions as the analysis tags them (the conv column).
    this.conv = new Uint8Array(m.n);
    for (let i = 0; i < m.n; i++) if (m.conv[i] >= 0) this.conv[i] = 1;

    this.alt = h("p", { class: "sr-only", id: "graph-alt", attrs: { "aria-live": "polite" } });
    this.canvas = h("canvas", { id: "graph-canvas", attrs: { role: "img", "aria-roledescription": "layer graph", "aria-describedby": "graph-alt graph-help",
      "aria-label": `Layer graph of ${m.n} layers. Arrow keys move between connected layers; the Table view lists every layer as text.`, tabindex: "0" } });
    this.tip = h("div", { class: "graph-tip", id: "graph-tip", attrs: { role: "tooltip" } });
    this.tip.hidden = true;
    this.ctx = this.canvas.getContext("2d")!;
    const search = h("input", { id: "graph-search", class: "filter", attrs: { type: "search", placeholder: "Find layer (Enter = next)", "aria-label": "Find layer in graph" } });
    search.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") this.search(search.value);
    });
    const color = h("select", { id: "graph-color", class: "filter", attrs: { "aria-label": "Colour by" } },
      h("option", { text: "Colour: layer type", attrs: { value: "type" } }),
      h("option", { text: "Colour: precision", attrs: { value: "precision" } }),
      m.timed ? h("option", { text: m.predicted ? "Colour: predicted time" : "Colour: time", attrs: { value: "time" } }) : null);
    color.addEventListener("change", () => {
      this.colorBy = color.value as "type" | "time" | "precision";
      this.drawLegend();
      this.schedule();
    });
    const group = h("select", { id: "graph-group", class: "filter", attrs: { "aria-label": "Group layers" } });
    for (const [v, t] of [["none", "All layers"], ["auto", "Group: Myelin graph / name prefix"], ["prefix", "Group: name prefix"], ["myelin", "Group: Myelin graph"], ["position", "Group: topological blocks"]]) {
      group.appendChild(h("option", { text: t, attrs: { value: v } }));
    }
    group.value = m.n > COLLAPSE_ABOVE ? "auto" : "none";
    group.addEventListener("change", () => this.regroup(group.value));
    const collapse = h("button", { id: "graph-collapse", text: "Collapse all", on: { click: () => this.regroup(group.value) } });
    const fit = h("button", { id: "graph-fit", text: "Fit", on: { click: () => this.fit(true) } });
    this.info = h("span", { class: "muted graph-info", id: "graph-info" });
    this.legend = h("div", { class: "legend", id: "graph-legend" });
    this.marks = h("div", { class: "graph-marks", id: "graph-marks", attrs: { "aria-live": "polite" } });
    this.mini = h("canvas", { id: "graph-minimap", class: "minimap", title: "Overview: click or drag to move the view", attrs: { "aria-label": "Graph overview" } });
    this.mini.hidden = true;
    const wrap = h("div", { class: "canvas-wrap" }, this.canvas, this.mini, this.tip);
    const help = h("p", { class: "muted graph-help", id: "graph-help",
      text: "Drag to pan, wheel to zoom, click a node to open it. Keys: ↑ producer, ↓ consumer, ← → neighbours in the row, Enter opens a group, + − zoom. Dashed orange: format conversions (reformat, Q/DQ, cast) and edges where the precision changes." });
    this.el = h("div", { class: "graph", attrs: { role: "group", "aria-label": "Graph view" } }, h("div", { class: "graph-controls" }, search, color, group, collapse, fit, this.info), this.marks, wrap, this.legend, help, this.alt);

    this.regroup(group.value, false);
    this.drawLegend();
    this.bind(wrap);
  }

  /** Selects a layer's node and brings it into view. With open (a layer
   *  chosen outside the graph: table, details, charts, search), a collapsed
   *  group holding it is expanded so the layer itself is centred; graph
   *  navigation (arrow keys onto a group) keeps groups as they are. */
  select(layer: number, open = true): void {
    this.selected = layer;
    if (open) this.reveal(layer);
    this.centreOn(layer);
    this.updateMarks();
    if (layer >= 0 && layer < this.m.n) this.alt.textContent = "Selected: " + this.describe(this.lay.nodeOf[layer]).join("; ");
    this.schedule();
  }

  /** Test hook: how edges are drawn. For every edge, whether its route
   *  crosses the box of a node other than its two ends (a skip edge drawn
   *  through the nodes it skips would be invisible), and the marks. */
  edgeReport(): { engine: string; edges: number; hidden: number[][]; boundary: number; conversions: number; rankSpan: number[]; labels: string[] } {
    const lay = this.lay;
    const hidden: number[][] = [];
    const span: number[] = [];
    let boundary = 0;
    for (let k = 0; k < lay.edges.length; k += 2) {
      const a = lay.edges[k];
      const b = lay.edges[k + 1];
      if (this.isBoundary(k)) boundary++;
      span.push(Math.abs(lay.rank[b] - lay.rank[a]));
      const p = lay.paths ? lay.paths[k / 2] : Float32Array.of(lay.x[a] + NODE_W / 2, lay.y[a] + NODE_H, lay.x[b] + NODE_W / 2, lay.y[b]);
      for (let v = 0; v < lay.count; v++) {
        if (v === a || v === b) continue;
        let hit = false;
        for (let i = 0; i + 3 < p.length && !hit; i += 2) hit = segmentHitsBox(p[i], p[i + 1], p[i + 2], p[i + 3], lay.x[v] + 1, lay.y[v] + 1, lay.x[v] + NODE_W - 1, lay.y[v] + NODE_H - 1);
        if (hit) {
          hidden.push([lay.layer[a], lay.layer[b], lay.layer[v]]);
          break;
        }
      }
    }
    let conversions = 0;
    for (let v = 0; v < lay.count; v++) if (lay.layer[v] >= 0 && this.conv[lay.layer[v]]) conversions++;
    const labels = Array.from(lay.edgeLabel, (id) => (id >= 0 ? shortLabel(this.m.strings[id]) : ""));
    return { engine: lay.engine, edges: lay.edges.length / 2, hidden, boundary, conversions, rankSpan: span, labels };
  }

  setHighlight(layers: Set<number> | null): void {
    this.highlight = layers;
    this.countHighlight();
    this.updateMarks();
    this.miniBase = null;
    if (layers && layers.size) {
      let first = -1;
      for (const l of layers) if (first < 0 || this.m.pos[l] < this.m.pos[first]) first = l;
      this.centreOn(first);
    }
    this.schedule();
  }

  /** Test hook: centres a layer's node and returns its client coordinates. */
  locate(layer: number): { x: number; y: number } {
    this.canvas.scrollIntoView({ block: "center" });
    this.centreOn(layer);
    this.draw();
    const v = this.lay.nodeOf[layer];
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + (this.lay.x[v] + NODE_W / 2) * this.s + this.tx, y: r.top + (this.lay.y[v] + NODE_H / 2) * this.s + this.ty };
  }

  /** Benchmark hook: redraws k times at changing zoom, returns ms per draw. */
  benchRedraw(k: number): number {
    const t0 = performance.now();
    const s0 = this.s;
    for (let i = 0; i < k; i++) {
      this.zoomAt(this.w / 2, this.hgt / 2, i % 2 ? 1.25 : 0.8);
      this.draw();
    }
    this.s = s0;
    return (performance.now() - t0) / k;
  }

  /** Test hook: the text colours the last draw used on the canvas, each
   *  with the fill under it and their WCAG contrast ratio. */
  textColours(): { what: string; fg: string; bg: string; ratio: number; large: boolean }[] {
    return Array.from(this.drawnText, (k) => {
      const [what, fg, bg] = k.split("|");
      return { what, fg, bg, ratio: contrast(fg, bg), large: false };
    });
  }

  nodeCount(): number {
    return this.lay.count;
  }

  /** Test hook: how a layer is shown — its own node or inside a collapsed
   *  group — what that node is marked with, and where it is. */
  nodeState(layer: number): { group: string; highlighted: number; selected: boolean; x: number; y: number; scale: number } | null {
    if (layer < 0 || layer >= this.m.n) return null;
    const v = this.lay.nodeOf[layer];
    const g = this.lay.group[v];
    return {
      group: g >= 0 ? this.grouping!.names[g] : "",
      highlighted: g >= 0 ? (this.hlCount ? this.hlCount[g] : 0) : this.highlight && this.highlight.has(layer) ? 1 : 0,
      selected: this.selected >= 0 && this.lay.nodeOf[this.selected] === v,
      x: this.lay.x[v], // layout position of its node (rows share y)
      y: this.lay.y[v],
      scale: this.s, // the view's zoom
    };
  }

  /** Test hook: whether a layer's node is (partly) inside the canvas view. */
  inView(layer: number): boolean {
    if (layer < 0 || layer >= this.m.n) return false;
    const v = this.lay.nodeOf[layer];
    const x = this.lay.x[v] * this.s + this.tx;
    const y = this.lay.y[v] * this.s + this.ty;
    return x + NODE_W * this.s > 0 && x < this.w && y + NODE_H * this.s > 0 && y < this.hgt;
  }

  private countHighlight(): void {
    this.hlCount = null;
    if (!this.grouping || !this.highlight || !this.highlight.size) return;
    const c = new Int32Array(this.grouping.names.length);
    for (const l of this.highlight) {
      const g = l >= 0 && l < this.m.n ? this.grouping.of[l] : -1;
      if (g >= 0) c[g]++;
    }
    this.hlCount = c;
  }

  /** Says in text what the canvas marks inside collapsed groups (also the
   *  state the browser tests read). */
  private updateMarks(): void {
    const parts: string[] = [];
    let layers = 0;
    let groups = 0;
    if (this.hlCount && this.expanded) {
      for (let g = 0; g < this.hlCount.length; g++) {
        if (this.hlCount[g] && !this.expanded[g]) {
          groups++;
          layers += this.hlCount[g];
        }
      }
    }
    if (groups) parts.push(`${layers.toLocaleString("en-US")} highlighted layer${layers === 1 ? "" : "s"} inside ${groups.toLocaleString("en-US")} collapsed group${groups === 1 ? "" : "s"} (orange outline)`);
    const sel = this.selected;
    const sg = sel >= 0 && sel < this.m.n && this.grouping && this.expanded ? this.grouping.of[sel] : -1;
    if (sg >= 0 && !this.expanded![sg]) parts.push(`the selected layer is inside group "${this.grouping!.names[sg]}": click the group to expand it`);
    this.marks.textContent = parts.join(" · ");
    this.marks.hidden = parts.length === 0;
    this.canvas.dataset.highlightGroups = String(groups);
    this.canvas.dataset.highlightInGroups = String(layers);
  }

  private regroup(mode: string, redraw = true): void {
    this.grouping = groupLayers(this.m, mode, GROUP_TARGET);
    this.expanded = this.grouping ? new Uint8Array(this.grouping.names.length) : null;
    this.countHighlight();
    this.relayout();
    this.openView(redraw);
  }

  private relayout(): void {
    this.timeSorted = null;
    // dagre runs off the main thread (layoutDagre): the linear layout is
    // drawn at once and dagre's geometry replaces it when it arrives.
    const lay = layout(this.m, this.grouping, this.expanded, true);
    this.lay = lay;
    this.miniBase = null;
    const gen = ++this.layoutGen;
    if (lay.dagreWanted) {
      layoutPending(1);
      layoutDagre(lay).then((g) => {
        if (gen === this.layoutGen) this.swapIn(g);
      }).finally(() => layoutPending(-1));
    }
    const groups = this.grouping ? this.grouping.names.length : 0;
    this.info.textContent = `${this.lay.count.toLocaleString("en-US")} nodes, ${(this.lay.edges.length / 2).toLocaleString("en-US")} edges` +
      (groups ? ` · ${groups.toLocaleString("en-US")} groups by ${this.grouping!.name}; click a group to expand it` : "");
    this.updateMarks();
  }

  /** Puts dagre's geometry in place of the linear layout it was computed
   *  for, keeping the view: the opening view if nobody moved it, else the
   *  selected node, else the node nearest the middle, where they were. */
  private swapIn(g: import("./layout").Geometry): void {
    const lay = this.lay;
    let keep = this.selected >= 0 ? lay.nodeOf[this.selected] : -1;
    let fx = 0.5, fy = 0.5;
    if (keep < 0 && this.moved && this.w > 0) {
      let best = Infinity;
      for (let v = 0; v < lay.count; v++) {
        const dx = (lay.x[v] + NODE_W / 2) * this.s + this.tx - this.w / 2;
        const dy = (lay.y[v] + NODE_H / 2) * this.s + this.ty - this.hgt / 2;
        if (dx * dx + dy * dy < best) {
          best = dx * dx + dy * dy;
          keep = v;
        }
      }
      if (keep >= 0) {
        fx = ((lay.x[keep] + NODE_W / 2) * this.s + this.tx) / this.w;
        fy = ((lay.y[keep] + NODE_H / 2) * this.s + this.ty) / this.hgt;
      }
    }
    Object.assign(lay, g, { engine: "dagre", dagreWanted: false });
    this.miniBase = null;
    if (!this.moved && this.selected < 0) {
      if (this.fitted) this.openView(false);
    } else if (keep >= 0 && this.w > 0) {
      this.tx = fx * this.w - (lay.x[keep] + NODE_W / 2) * this.s;
      this.ty = fy * this.hgt - (lay.y[keep] + NODE_H / 2) * this.s;
    }
    this.schedule();
  }

  /** Expands the collapsed group holding layer, if any. */
  private reveal(layer: number): void {
    if (!this.grouping || !this.expanded || layer < 0 || layer >= this.m.n) return;
    const g = this.grouping.of[layer];
    if (g < 0 || this.expanded[g]) return;
    this.expanded[g] = 1;
    this.relayout();
  }

  private expand(group: number, layer: number): void {
    if (!this.expanded) return;
    this.expanded[group] = 1;
    this.relayout();
    this.centreOn(layer);
    this.schedule();
  }

  /** Called when the graph's view is shown: opens it once it has a size. */
  shown(): void {
    if (!this.fitted) this.openView(false);
    // A layer selected while the graph was hidden (a Table row, a chart) is
    // centred now that the canvas has a size, unless it is well inside.
    if (this.selected >= 0) {
      this.resize();
      if (!this.wellInView(this.selected)) this.centreOn(this.selected);
    }
    this.draw();
  }

  /** Fit: the whole graph in both axes (at most 1:1), centred. */
  private fit(redraw: boolean): void {
    this.resize();
    this.fitted = this.w > 0 && this.hgt > 0;
    this.moved = false;
    const w = this.w || 800;
    const hh = this.hgt || 600;
    const lay = this.lay;
    this.s = Math.min(1, (w - 40) / Math.max(1, lay.width), (hh - 40) / Math.max(1, lay.height));
    this.tx = (w - lay.width * this.s) / 2;
    this.ty = (hh - lay.height * this.s) / 2;
    if (redraw) this.schedule();
  }

  /** The opening view: the whole graph when it is legible that way, else
   *  its slowest node (group) at 1:1, or without timing its first row. */
  private openView(redraw: boolean): void {
    this.fit(false);
    if (!this.fitted || this.s >= LEGIBLE_SCALE) {
      if (redraw) this.schedule();
      return;
    }
    const lay = this.lay;
    let best = -1;
    for (let v = 0; v < lay.count; v++) if (lay.time[v] > 0 && (best < 0 || lay.time[v] > lay.time[best])) best = v;
    this.s = 1;
    if (best >= 0) {
      this.tx = this.w / 2 - (lay.x[best] + NODE_W / 2);
      this.ty = this.hgt / 2 - (lay.y[best] + NODE_H / 2);
    } else {
      // Untimed: the graph's start, its first row centred across.
      let first = 0;
      for (let v = 1; v < lay.count; v++) if (lay.y[v] < lay.y[first]) first = v;
      this.tx = this.w / 2 - (lay.x[first] + NODE_W / 2);
      this.ty = 20 - lay.y[first];
    }
    if (redraw) this.schedule();
  }

  /** Whether a layer's node lies inside the canvas with a margin. */
  private wellInView(layer: number): boolean {
    if (layer < 0 || layer >= this.m.n || this.s < LEGIBLE_SCALE) return false;
    const v = this.lay.nodeOf[layer];
    const x = this.lay.x[v] * this.s + this.tx;
    const y = this.lay.y[v] * this.s + this.ty;
    const mx = Math.min(40, this.w / 8);
    const my = Math.min(40, this.hgt / 8);
    return x >= mx && y >= my && x + NODE_W * this.s <= this.w - mx && y + NODE_H * this.s <= this.hgt - my;
  }

  /** Test hook: where a layer's node centre is in the canvas (0..1 across
   *  and down), the zoom, and the canvas size. */
  viewOf(layer: number): { fx: number; fy: number; s: number; w: number; h: number; fitW: boolean; fitH: boolean } | null {
    if (layer < 0 || layer >= this.m.n) return null;
    const v = this.lay.nodeOf[layer];
    const lay = this.lay;
    return {
      fx: ((lay.x[v] + NODE_W / 2) * this.s + this.tx) / this.w,
      fy: ((lay.y[v] + NODE_H / 2) * this.s + this.ty) / this.hgt,
      s: this.s, w: this.w, h: this.hgt,
      fitW: this.tx >= -1 && this.tx + lay.width * this.s <= this.w + 1,
      fitH: this.ty >= -1 && this.ty + lay.height * this.s <= this.hgt + 1,
    };
  }

  private centreOn(layer: number): void {
    if (layer < 0 || layer >= this.m.n) return;
    this.resize();
    const v = this.lay.nodeOf[layer];
    if (this.s < LEGIBLE_SCALE) this.s = 1;
    this.tx = this.w / 2 - (this.lay.x[v] + NODE_W / 2) * this.s;
    this.ty = this.hgt / 2 - (this.lay.y[v] + NODE_H / 2) * this.s;
  }

  private search(q: string): void {
    q = q.trim().toLowerCase();
    if (!q) return;
    if (q !== this.lastQuery) {
      this.lastQuery = q;
      this.searchHits = [];
      for (let p = 0; p < this.m.n; p++) {
        const i = this.m.order[p];
        if (this.m.names[i].toLowerCase().indexOf(q) >= 0) this.searchHits.push(i);
      }
      this.searchAt = -1;
    }
    if (!this.searchHits.length) {
      this.info.textContent = `no layer name contains "${q}"`;
      return;
    }
    this.searchAt = (this.searchAt + 1) % this.searchHits.length;
    const layer = this.searchHits[this.searchAt];
    this.reveal(layer);
    this.onSelect(layer);
    this.info.textContent = `match ${this.searchAt + 1} of ${this.searchHits.length}`;
  }

  private resize(): void {
    const wrap = this.canvas.parentElement!;
    const w = wrap.clientWidth;
    const hh = wrap.clientHeight;
    if (w === this.w && hh === this.hgt) return;
    this.w = w;
    this.hgt = hh;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.round(w * dpr));
    this.canvas.height = Math.max(1, Math.round(hh * dpr));
    this.canvas.style.width = w + "px";
    this.canvas.style.height = hh + "px";
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private zoomAt(cx: number, cy: number, f: number): void {
    this.moved = true;
    const s = Math.max(0.01, Math.min(4, this.s * f));
    this.tx = cx - ((cx - this.tx) * s) / this.s;
    this.ty = cy - ((cy - this.ty) * s) / this.s;
    this.s = s;
  }

  private bind(wrap: HTMLElement): void {
    new ResizeObserver(() => {
      this.resize();
      this.schedule();
    }).observe(wrap);
    this.canvas.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const r = this.canvas.getBoundingClientRect();
      this.zoomAt(ev.clientX - r.left, ev.clientY - r.top, Math.exp(-ev.deltaY * 0.0015));
      this.schedule();
    }, { passive: false });
    let down: { x: number; y: number; tx: number; ty: number; moved: boolean } | null = null;
    this.canvas.addEventListener("pointerdown", (ev) => {
      down = { x: ev.clientX, y: ev.clientY, tx: this.tx, ty: this.ty, moved: false };
      this.canvas.setPointerCapture(ev.pointerId);
    });
    this.canvas.addEventListener("pointerleave", () => {
      this.tip.hidden = true;
    });
    this.canvas.addEventListener("keydown", (ev) => this.key(ev));
    this.canvas.addEventListener("pointermove", (ev) => {
      if (!down) {
        const r = this.canvas.getBoundingClientRect();
        this.hover(ev.clientX - r.left, ev.clientY - r.top);
        return;
      }
      this.tip.hidden = true;
      const dx = ev.clientX - down.x;
      const dy = ev.clientY - down.y;
      if (Math.abs(dx) + Math.abs(dy) > 4) down.moved = true;
      if (down.moved) {
        this.moved = true;
        this.tx = down.tx + dx;
        this.ty = down.ty + dy;
        this.schedule();
      }
    });
    let miniDown = false;
    const miniPan = (ev: PointerEvent) => {
      const r = this.mini.getBoundingClientRect();
      this.panTo((ev.clientX - r.left) / this.miniKx, (ev.clientY - r.top) / this.miniKy);
    };
    this.mini.addEventListener("pointerdown", (ev) => {
      miniDown = true;
      this.mini.setPointerCapture(ev.pointerId);
      miniPan(ev);
    });
    this.mini.addEventListener("pointermove", (ev) => {
      if (miniDown) miniPan(ev);
    });
    this.mini.addEventListener("pointerup", () => {
      miniDown = false;
    });
    this.canvas.addEventListener("pointerup", (ev) => {
      const d = down;
      down = null;
      if (!d || d.moved) return;
      const r = this.canvas.getBoundingClientRect();
      this.click((ev.clientX - r.left - this.tx) / this.s, (ev.clientY - r.top - this.ty) / this.s);
    });
  }

  /** Centres the view on a layout point (from the minimap). */
  private panTo(wx: number, wy: number): void {
    this.moved = true;
    this.tx = this.w / 2 - wx * this.s;
    this.ty = this.hgt / 2 - wy * this.s;
    this.schedule();
  }

  /** Renders the node boxes of the whole layout into a small offscreen
   *  canvas, at most MINI_W × MINI_H pixels, as one ImageData: O(nodes +
   *  pixels), no per-node canvas calls. Highlighted nodes are orange. */
  private renderMiniBase(): HTMLCanvasElement {
    const lay = this.lay;
    const ky = Math.min(MINI_W / Math.max(1, lay.width), MINI_H / Math.max(1, lay.height));
    // A tall, narrow graph is stretched sideways to stay clickable.
    const kx = Math.max(ky, Math.min(MINI_W, MINI_MIN_W) / Math.max(1, lay.width));
    const mw = Math.max(8, Math.ceil(lay.width * kx));
    const mh = Math.max(8, Math.ceil(lay.height * ky));
    this.miniKx = kx;
    this.miniKy = ky;
    const cell = new Uint8Array(mw * mh); // 0 empty, 1 layer, 2 group, 3 highlighted
    for (let v = 0; v < lay.count; v++) {
      const l = lay.layer[v];
      const hl = l >= 0 ? this.highlight !== null && this.highlight.has(l) : this.hlCount !== null && this.hlCount[lay.group[v]] > 0;
      const c = hl ? 3 : l >= 0 ? 1 : 2;
      const x0 = Math.min(mw - 1, Math.floor(lay.x[v] * kx));
      const y0 = Math.min(mh - 1, Math.floor(lay.y[v] * ky));
      const x1 = Math.min(mw, Math.max(x0 + 1, Math.round((lay.x[v] + NODE_W) * kx)));
      const y1 = Math.min(mh, Math.max(y0 + 1, Math.round((lay.y[v] + NODE_H) * ky)));
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (cell[y * mw + x] < c) cell[y * mw + x] = c;
    }
    const base = document.createElement("canvas");
    base.width = mw;
    base.height = mh;
    const bctx = base.getContext("2d")!;
    const img = bctx.createImageData(mw, mh);
    const px = new Uint32Array(img.data.buffer);
    // little-endian ABGR
    const colours = [0xe6fefcfb, 0xffc89e76, 0xff6f6053, 0xff006aff];
    for (let i = 0; i < cell.length; i++) px[i] = colours[cell[i]];
    bctx.putImageData(img, 0, 0);
    return base;
  }

  /** Shows the overview when the graph does not fit the view: the cached
   *  boxes plus the current viewport rectangle. */
  private drawMini(): void {
    const lay = this.lay;
    const fits = lay.width * this.s <= this.w && lay.height * this.s <= this.hgt && this.tx >= -1 && this.ty >= -1 &&
      this.tx + lay.width * this.s <= this.w + 1 && this.ty + lay.height * this.s <= this.hgt + 1;
    this.mini.hidden = fits || lay.count === 0;
    if (this.mini.hidden) return;
    if (!this.miniBase) {
      this.miniBase = this.renderMiniBase();
      this.mini.width = this.miniBase.width;
      this.mini.height = this.miniBase.height;
    }
    const ctx = this.mini.getContext("2d")!;
    ctx.clearRect(0, 0, this.mini.width, this.mini.height);
    ctx.drawImage(this.miniBase, 0, 0);
    const x = (-this.tx / this.s) * this.miniKx;
    const y = (-this.ty / this.s) * this.miniKy;
    const w = Math.max(3, (this.w / this.s) * this.miniKx);
    const hh = Math.max(3, (this.hgt / this.s) * this.miniKy);
    ctx.fillStyle = "rgba(47,111,179,0.15)";
    ctx.fillRect(x, y, w, hh);
    ctx.strokeStyle = "#2f6fb3";
    ctx.lineWidth = 1.5;
    ctx.strokeRect(x + 0.75, y + 0.75, w - 1.5, hh - 1.5);
  }

  /** The node at a layout point, or -1. */
  private nodeAt(wx: number, wy: number): number {
    const lay = this.lay;
    for (let v = 0; v < lay.count; v++) {
      if (wx >= lay.x[v] && wx <= lay.x[v] + NODE_W && wy >= lay.y[v] && wy <= lay.y[v] + NODE_H) return v;
    }
    return -1;
  }

  /** What a node is, in one line per fact (tooltip and text alternative). */
  describe(v: number): string[] {
    const lay = this.lay;
    const m = this.m;
    const l = lay.layer[v];
    if (l < 0) {
      const g = lay.group[v];
      return [`Group ${this.grouping!.names[g]}`, `${this.grouping!.sizes[g].toLocaleString("en-US")} layers${m.timed ? " · " + fmtMs(lay.time[v], 4) : ""}`, "click or Enter to expand"];
    }
    const out = [m.names[l], `${m.type[l]} · ${m.precision[l]}${m.timed ? ` · ${fmtMs(m.avg[l], 4)} (${fmtPct(m.pct[l])})` : ""}`];
    if (this.conv[l]) out.push("format conversion: " + this.m.strings[this.m.conv[l]]);
    const k = m.outStart[l];
    if (k < m.outStart[l + 1] && m.outLabel[k] >= 0) out.push("output " + shortLabel(m.strings[m.outLabel[k]]));
    out.push(`${m.inStart[l + 1] - m.inStart[l]} producer(s), ${m.outStart[l + 1] - m.outStart[l]} consumer(s)`);
    return out;
  }

  private hover(cx: number, cy: number): void {
    const v = this.nodeAt((cx - this.tx) / this.s, (cy - this.ty) / this.s);
    if (v < 0) {
      this.tip.hidden = true;
      return;
    }
    clear(this.tip);
    this.describe(v).forEach((line, i) => this.tip.appendChild(h("div", { class: i === 0 ? "mono" : "", text: line })));
    this.tip.hidden = false;
    const left = Math.min(cx + 14, Math.max(0, this.w - 360));
    this.tip.style.left = left + "px";
    this.tip.style.top = Math.min(cy + 14, Math.max(0, this.hgt - 90)) + "px";
  }

  /** Keyboard: ↑ first producer, ↓ first consumer, ← → neighbour in the
   *  same row, Enter expands a group, + − zoom, 0 fits. */
  private key(ev: KeyboardEvent): void {
    const lay = this.lay;
    const m = this.m;
    if (ev.key === "+" || ev.key === "=" || ev.key === "-") {
      this.zoomAt(this.w / 2, this.hgt / 2, ev.key === "-" ? 0.8 : 1.25);
      this.schedule();
      ev.preventDefault();
      return;
    }
    if (ev.key === "0") {
      this.fit(true);
      ev.preventDefault();
      return;
    }
    const cur = this.selected;
    if (cur < 0) {
      if (!["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Enter"].includes(ev.key)) return;
      ev.preventDefault();
      if (m.n) this.onSelect(m.order[0]);
      return;
    }
    const v = lay.nodeOf[cur];
    let next = -1;
    if (ev.key === "Enter") {
      if (lay.layer[v] < 0) this.click(lay.x[v] + 1, lay.y[v] + 1);
      ev.preventDefault();
      return;
    }
    if (ev.key === "ArrowUp" || ev.key === "ArrowDown") {
      const [st, adj] = ev.key === "ArrowUp" ? [m.inStart, m.inAdj] : [m.outStart, m.outAdj];
      for (let k = st[cur]; k < st[cur + 1]; k++) {
        if (lay.nodeOf[adj[k]] !== v) {
          next = adj[k];
          break;
        }
      }
      // A collapsed group (or a layer whose neighbours share its group):
      // follow the drawn edges of its node to the next node.
      if (next < 0) {
        const at = ev.key === "ArrowUp" ? 1 : 0; // v's end of the edge
        for (let k = 0; k < lay.edges.length; k += 2) {
          if (lay.edges[k + at] !== v) continue;
          const u = lay.edges[k + 1 - at];
          next = lay.layer[u] >= 0 ? lay.layer[u] : this.firstOfGroup(lay.group[u]);
          break;
        }
      }
    } else if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
      const dir = ev.key === "ArrowLeft" ? -1 : 1;
      let best = -1;
      let bestD = Infinity;
      for (let u = 0; u < lay.count; u++) {
        if (u === v || Math.abs(lay.y[u] - lay.y[v]) > 1) continue;
        const d = (lay.x[u] - lay.x[v]) * dir;
        if (d > 0 && d < bestD) {
          bestD = d;
          best = u;
        }
      }
      if (best >= 0) next = lay.layer[best] >= 0 ? lay.layer[best] : this.firstOfGroup(lay.group[best]);
    } else {
      return;
    }
    ev.preventDefault();
    if (next >= 0) this.onSelect(next);
  }

  private firstOfGroup(g: number): number {
    let first = -1;
    for (let i = 0; i < this.m.n; i++) if (this.grouping!.of[i] === g && (first < 0 || this.m.pos[i] < this.m.pos[first])) first = i;
    return first;
  }

  private click(wx: number, wy: number): void {
    const lay = this.lay;
    for (let v = 0; v < lay.count; v++) {
      if (wx < lay.x[v] || wx > lay.x[v] + NODE_W || wy < lay.y[v] || wy > lay.y[v] + NODE_H) continue;
      if (lay.layer[v] >= 0) {
        this.onSelect(lay.layer[v]);
      } else {
        const g = lay.group[v];
        // Expand and select the group's first layer in topological order.
        let first = -1;
        for (let i = 0; i < this.m.n; i++) if (this.grouping!.of[i] === g && (first < 0 || this.m.pos[i] < this.m.pos[first])) first = i;
        this.expand(g, first);
        if (first >= 0) this.onSelect(first);
      }
      return;
    }
  }

  private color(v: number): string {
    const lay = this.lay;
    if (this.colorBy === "time" && this.m.timed) return GraphView.timeColor(this.timeQuantile(lay.time[v]));
    const l = lay.layer[v];
    if (l < 0) return "#cfd8e3";
    if (this.colorBy === "precision") return precisionColor(this.m.precision[l]);
    return this.typeColor.get(this.m.type[l]) || "#999";
  }

  /** An edge between two layers whose precisions differ (a Q/DQ or
   *  reformat boundary), k indexing lay.edges pairs. */
  private isBoundary(k: number): boolean {
    const a = this.lay.layer[this.lay.edges[k]];
    const b = this.lay.layer[this.lay.edges[k + 1]];
    if (a < 0 || b < 0) return false;
    const pa = this.m.precision[a];
    const pb = this.m.precision[b];
    return pa !== pb && pa !== "unknown" && pb !== "unknown";
  }

  /** Time colour of a quantile q in [0, 1]: blue (fast) to red (slow). */
  private static timeColor(q: number): string {
    const f = Math.max(0, Math.min(1, q));
    return `hsl(${(220 - 220 * f).toFixed(0)}, 70%, ${(80 - 30 * f).toFixed(0)}%)`;
  }

  /** The node times of the current layout, sorted (the time scale's
   *  quantiles: a node's colour says how many nodes are faster, so a
   *  grouped 10^5-layer graph, whose group sums all exceed the slowest
   *  layer, is not all red, and a few slow layers do not make the rest
   *  one colour). */
  private sortedTimes(): Float64Array {
    if (!this.timeSorted) {
      const t = this.lay.time.filter((x) => isFinite(x));
      this.timeSorted = Float64Array.from(t).sort();
    }
    return this.timeSorted;
  }

  /** The quantile of time t among the layout's nodes (ties share the
   *  middle of their ranks). */
  private timeQuantile(t: number): number {
    const s = this.sortedTimes();
    if (s.length < 2 || !isFinite(t)) return 0;
    let lo = 0, hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    let up = lo;
    hi = s.length;
    while (up < hi) {
      const mid = (up + hi) >> 1;
      if (s[mid] <= t) up = mid + 1;
      else hi = mid;
    }
    return Math.min(1, ((lo + up - 1) / 2) / (s.length - 1));
  }

  /** Test hook: how the time colours spread over the layout's nodes: the
   *  share of nodes in each tenth of the scale. */
  timeBands(): number[] {
    const bands = new Array<number>(10).fill(0);
    const n = this.lay.count;
    for (let v = 0; v < n; v++) bands[Math.min(9, Math.floor(this.timeQuantile(this.lay.time[v]) * 10))]++;
    return bands.map((b) => b / Math.max(1, n));
  }

  private drawLegend(): void {
    clear(this.legend);
    const item = (color: string, text: string, cls = "swatch") => {
      const sw = h("span", { class: cls });
      sw.style.background = color;
      this.legend.appendChild(h("span", { class: "legend-item" }, sw, text));
    };
    if (this.colorBy === "time") {
      const s = this.sortedTimes();
      const at = (q: number) => (s.length ? s[Math.min(s.length - 1, Math.round(q * (s.length - 1)))] : 0);
      const bar = h("span", { class: "time-scale", id: "time-scale" });
      const stops: string[] = [];
      for (let i = 0; i <= 10; i++) stops.push(GraphView.timeColor(i / 10));
      bar.style.background = `linear-gradient(to right, ${stops.join(", ")})`;
      this.legend.appendChild(h("span", { class: "legend-item time-legend" }, h("span", { text: fmtMs(at(0), 4) }), bar,
        h("span", { text: `${fmtMs(at(1), 4)} · median ${fmtMs(at(0.5), 4)}, 90th percentile ${fmtMs(at(0.9), 4)}` + (this.m.predicted ? " (predicted)" : "") +
          ` · quantile scale: each step of colour holds a tenth of the ${this.grouping ? "nodes (groups sum their layers)" : "layers"}` })));
    } else if (this.colorBy === "precision") {
      for (const p of distinctIds(this.m, this.m.precisionId)) item(precisionColor(p), p);
    } else {
      let k = 0;
      for (const t of this.types) {
        if (k++ >= 14) {
          this.legend.appendChild(h("span", { class: "muted", text: `+${this.types.length - 14} more types (colour from the type name, the same in every report)` }));
          break;
        }
        item(this.typeColor.get(t)!, t);
      }
    }
    const conv = h("span", { class: "swatch conv" });
    this.legend.appendChild(h("span", { class: "legend-item" }, conv, "⇄ conversion (reformat, Q/DQ, cast)"));
    this.legend.appendChild(h("span", { class: "legend-item" }, h("span", { class: "edge-boundary" }), "precision changes on this edge"));
    if (this.grouping) {
      const sw = h("span", { class: "swatch group" });
      this.legend.appendChild(h("span", { class: "legend-item" }, sw, "group (click to expand)"));
    }
  }

  /** Draws what is in view: culls nodes and edges outside the viewport. */
  draw(): void {
    this.resize();
    const ctx = this.ctx;
    const lay = this.lay;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    const paper = dark ? "#151a21" : "#fbfcfe";
    this.drawnText.clear();
    ctx.fillStyle = paper;
    ctx.fillRect(0, 0, this.w, this.hgt);
    ctx.setTransform(dpr * this.s, 0, 0, dpr * this.s, dpr * this.tx, dpr * this.ty);
    const x0 = -this.tx / this.s - NODE_W;
    const x1 = (this.w - this.tx) / this.s;
    const y0 = -this.ty / this.s - NODE_H;
    const y1 = (this.hgt - this.ty) / this.s;

    const E = lay.edges.length;
    const visible = (k: number) => {
      const a = lay.edges[k];
      const b = lay.edges[k + 1];
      const ya = lay.y[a] + NODE_H;
      const yb = lay.y[b];
      if ((ya < y0 && yb < y0) || (ya > y1 + NODE_H && yb > y1 + NODE_H)) return false;
      const xa = lay.x[a] + NODE_W / 2;
      const xb = lay.x[b] + NODE_W / 2;
      // A routed edge may swing wide of its ends: only plain curves are
      // culled sideways.
      if (!lay.paths && ((xa < x0 && xb < x0) || (xa > x1 + NODE_W && xb > x1 + NODE_W))) return false;
      return true;
    };
    const trace = (k: number) => {
      const a = lay.edges[k];
      const b = lay.edges[k + 1];
      const p = lay.paths ? lay.paths[k / 2] : null;
      if (p && p.length >= 4) {
        ctx.moveTo(p[0], p[1]);
        for (let i = 2; i < p.length; i += 2) ctx.lineTo(p[i], p[i + 1]);
        return;
      }
      const xa = lay.x[a] + NODE_W / 2;
      const xb = lay.x[b] + NODE_W / 2;
      const ya = lay.y[a] + NODE_H;
      const yb = lay.y[b];
      const my = (ya + yb) / 2;
      ctx.moveTo(xa, ya);
      ctx.bezierCurveTo(xa, my, xb, my, xb, yb);
    };
    ctx.strokeStyle = dark ? "rgba(190,200,215,0.6)" : "rgba(70,80,100,0.55)";
    ctx.lineWidth = 1.2 / Math.max(this.s, 0.5);
    ctx.beginPath();
    const boundary: number[] = [];
    for (let k = 0; k < E; k += 2) {
      if (!visible(k)) continue;
      if (this.isBoundary(k)) {
        boundary.push(k);
        continue;
      }
      trace(k);
    }
    ctx.stroke();
    if (boundary.length) {
      ctx.strokeStyle = "#d9730d";
      ctx.lineWidth = 2.2 / Math.max(this.s, 0.5);
      ctx.setLineDash([6, 4]);
      ctx.beginPath();
      for (const k of boundary) trace(k);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    // Arrowheads where the edge enters its consumer.
    if (this.s >= 0.5) {
      ctx.fillStyle = dark ? "rgba(190,200,215,0.8)" : "rgba(70,80,100,0.8)";
      ctx.beginPath();
      for (let k = 0; k < E; k += 2) {
        if (!visible(k)) continue;
        const b = lay.edges[k + 1];
        const p = lay.paths ? lay.paths[k / 2] : null;
        const ex = p && p.length >= 2 ? p[p.length - 2] : lay.x[b] + NODE_W / 2;
        const ey = lay.y[b];
        ctx.moveTo(ex, ey);
        ctx.lineTo(ex - 4, ey - 7);
        ctx.lineTo(ex + 4, ey - 7);
        ctx.closePath();
      }
      ctx.fill();
    }
    // Tensor labels (shape, data type, format) when zoomed in enough to read.
    if (this.s >= 0.7 && lay.lx && lay.ly) {
      ctx.font = "10px system-ui, sans-serif";
      ctx.textBaseline = "middle";
      const ink = dark ? "#c8d0dc" : "#3b4656";
      ctx.fillStyle = ink;
      this.drawnText.add(`edge label|${ink}|${paper}`);
      for (let k = 0; k < E; k += 2) {
        const id = lay.edgeLabel[k / 2];
        if (id < 0 || !visible(k)) continue;
        const lx = lay.lx[k / 2];
        const ly = lay.ly[k / 2];
        if (!isFinite(lx)) continue;
        ctx.fillText(ellipsis(shortLabel(this.m.strings[id]), 28), lx, ly);
      }
    }

    const labels = this.s >= 0.45;
    const maxChars = Math.floor((NODE_W - 10) / 6.4);
    ctx.font = "11px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    const selNode = this.selected >= 0 ? lay.nodeOf[this.selected] : -1;
    const badges: number[] = []; // node, count pairs
    for (let v = 0; v < lay.count; v++) {
      const x = lay.x[v];
      const y = lay.y[v];
      if (x < x0 || x > x1 || y < y0 || y > y1) continue;
      const l = lay.layer[v];
      const fill = this.color(v);
      ctx.fillStyle = fill;
      ctx.fillRect(x, y, NODE_W, NODE_H);
      if (l < 0) {
        ctx.strokeStyle = "#53606f";
        ctx.lineWidth = 2;
        ctx.strokeRect(x + 3, y + 3, NODE_W - 6, NODE_H - 6);
      } else if (this.conv[l]) {
        ctx.strokeStyle = "#d9730d";
        ctx.lineWidth = 2.5;
        ctx.setLineDash([5, 3]);
        ctx.strokeRect(x + 1, y + 1, NODE_W - 2, NODE_H - 2);
        ctx.setLineDash([]);
      }
      const hlIn = l < 0 && this.hlCount ? this.hlCount[lay.group[v]] : 0;
      const hl = hlIn > 0 || (this.highlight !== null && l >= 0 && this.highlight.has(l));
      if (hl) {
        ctx.strokeStyle = "#ff6a00";
        ctx.lineWidth = 3 / Math.min(1, this.s);
        ctx.strokeRect(x - 2, y - 2, NODE_W + 4, NODE_H + 4);
      }
      if (v === selNode) {
        // Inside the highlight outline, so a node can show both.
        ctx.strokeStyle = dark ? "#ffffff" : "#111111";
        ctx.lineWidth = hl ? 2 : 4;
        ctx.strokeRect(x - (hl ? 0 : 2), y - (hl ? 0 : 2), NODE_W + (hl ? 0 : 4), NODE_H + (hl ? 0 : 4));
      }
      if (labels) {
        const ink = inkOn(fill);
        ctx.fillStyle = ink;
        this.drawnText.add(`${l < 0 ? "group" : "node"} label|${ink}|${fill}`);
        let text: string;
        if (l >= 0) text = (this.conv[l] ? "⇄ " : "") + this.m.names[l];
        else text = `▸ ${this.grouping!.names[lay.group[v]]} (${this.grouping!.sizes[lay.group[v]]})`;
        ctx.fillText(ellipsis(text, maxChars), x + 5, y + NODE_H / 2);
      }
      if (hlIn > 0) badges.push(v, hlIn);
    }
    // Count badges last, so neighbouring nodes do not paint over them.
    if (badges.length) {
      ctx.font = "bold 10px system-ui, sans-serif";
      const k = 1 / Math.min(1, Math.max(this.s, 0.25)); // readable when zoomed out
      for (let j = 0; j < badges.length; j += 2) {
        const v = badges[j];
        const text = `${badges[j + 1].toLocaleString("en-US")} highlighted`;
        const bw = (ctx.measureText(text).width + 10) * k;
        const bh = 14 * k;
        const bx = lay.x[v] + NODE_W - bw + 4;
        const by = lay.y[v] - bh / 2 - 2;
        ctx.fillStyle = "#ff6a00";
        ctx.fillRect(bx, by, bw, bh);
        ctx.fillStyle = inkOn("#ff6a00");
        this.drawnText.add(`highlight badge|${inkOn("#ff6a00")}|#ff6a00`);
        ctx.save();
        ctx.translate(bx + 5 * k, by + bh / 2);
        ctx.scale(k, k);
        ctx.fillText(text, 0, 0);
        ctx.restore();
      }
    }
    this.drawMini();
  }
}

/** Whether segment (x0,y0)-(x1,y1) meets the box [bx0,bx1]×[by0,by1]
 *  (Liang–Barsky clipping). */
export function segmentHitsBox(x0: number, y0: number, x1: number, y1: number, bx0: number, by0: number, bx1: number, by1: number): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const clip = (p: number, q: number) => {
    if (p === 0) return q >= 0;
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
    return true;
  };
  return clip(-dx, x0 - bx0) && clip(dx, bx1 - x0) && clip(-dy, y0 - by0) && clip(dy, by1 - y0) && t0 <= t1;
}
