// The compare tab: the top-level `comparison` of analyze-data.json (every
// usable backend against one baseline). Per pair: the verdict in words on
// the pair's measure, latency per backend stacked by type or precision, a
// waterfall from A's total to B's through per-type / per-region /
// per-precision deltas, what changed (one-sided conversions, tactic,
// tensor-core, precision and format changes), and the aligned groups as a
// sortable table whose rows highlight their layers in either backend's
// graph. Everything is drawn from the pair's own numbers: no re-alignment
// happens here.
import { h, clear, badge, ellipsis, fmtInt } from "./dom";
import { GraphView, precisionColor } from "./graph";
import { typeColors } from "./colors";
import { loadColumns } from "./loader";
import { buildModel, type Model } from "./model";
import { arrowTabs } from "./tabs";
import type { AnalyzeData, Comparison, ComparisonPair, GroupDelta } from "./types";

export type PairRow = ComparisonPair["rows"][number];

/** The pair's measure in words. */
export function measureName(m: ComparisonPair["measure"]): string {
  if (m === "gpu_compute") return "measured GPU compute median";
  if (m === "end_to_end") return "measured host latency (H2D + compute + D2H) median";
  if (m === "predicted") return "PREDICTED layer sums (cost model, not measured)";
  return "layer sums (sum of profiled layer averages)";
}

/** Milliseconds with about three significant digits (pair deltas are often
 *  hundredths of a millisecond). */
export function fmtMsAuto(v: number): string {
  if (!isFinite(v)) return "—";
  if (v === 0) return "0 ms";
  const d = Math.max(2, Math.min(6, 2 - Math.floor(Math.log10(Math.abs(v)))));
  return v.toFixed(d) + " ms";
}

function signedMs(v: number): string {
  return (v > 0 ? "+" : v < 0 ? "−" : "") + fmtMsAuto(Math.abs(v));
}

function signedPct(v: number): string {
  if (!isFinite(v)) return "—";
  return (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(v).toFixed(Math.abs(v) < 10 ? 2 : 1) + " %";
}

/** The verdict and its noise band as one sentence. */
export function verdictText(p: ComparisonPair): string {
  // Two predictions: the band is the cost model's error, not run-to-run noise.
  const what = p.measure === "predicted" ? "cost model's error band" : "noise band";
  const band = `${what} ±${p.noise.pct.toFixed(2)} % (±${fmtMsAuto(p.noise.ms)})`;
  const diff = `${signedMs(p.delta_ms)}, ${signedPct(p.delta_pct)}`;
  switch (p.verdict) {
    case "same_engine":
      return `Same engine: ${p.b} and ${p.a} have the same layers, tactics and formats; the difference (${diff}) is run-to-run noise, inside the ${band}.`;
    case "within_noise":
      return `Within noise: ${p.b} differs from ${p.a} by ${diff}, inside the ${band}; neither is faster.`;
    case "b_faster":
      return `${p.b} is faster than ${p.a} by ${fmtMsAuto(-p.delta_ms)}, ${Math.abs(p.delta_pct).toFixed(1)} % (${(1 / p.b_time_ratio).toFixed(2)}× faster), beyond the ${band}.`;
    default:
      return `${p.b} is slower than ${p.a} by ${fmtMsAuto(p.delta_ms)}, ${Math.abs(p.delta_pct).toFixed(1)} % (${p.b_time_ratio.toFixed(2)}× the time), beyond the ${band}.`;
  }
}

/** What the analysis' summary of the pair adds to the verdict line (which
 *  already says who is faster, by how much and against which noise band):
 *  the largest difference, and why two same engines timed apart. Empty
 *  when it adds nothing, so the tab does not say "same engine" twice. */
export function verdictDetail(p: ComparisonPair): string {
  const parts: string[] = [];
  if (p.same_engine && (p.verdict === "b_faster" || p.verdict === "b_slower")) {
    parts.push("The engines are the same (same layers, tactics and formats): the GPU ran differently (clocks, load).");
  }
  if (p.verdict !== "same_engine" && p.reasons.length > 0) parts.push(`Largest difference: ${p.reasons[0]}.`);
  return parts.join(" ");
}

const KIND_TEXT: Record<PairRow["kind"], string> = {
  matched: "matched", split: "split", merged: "merged", regrouped: "regrouped", only_a: "only A", only_b: "only B",
};

/** How the compare tab talks back to the page: the graph it shows (for the
 *  page's test hooks) and when it is interactive. */
export interface CompareHost {
  live(): boolean;
  setGraph(g: GraphView | null): void;
  /** the tab is being drawn (a pair was chosen) */
  busy(): void;
  ready(): void;
}

interface Side {
  label: string;
  bi: number; // backend index in results, -1 when the label is not a backend of this file
}

/** Renders the compare tab into root. */
export function showCompare(root: HTMLElement, d: AnalyzeData, host: CompareHost): void {
  const c = d.comparison as Comparison;
  const results = d.results || [];
  const indexOf = (label: string) => results.findIndex((b) => b.label === label);
  const sec = h("section", { class: "panel", id: "compare", attrs: { "aria-label": "Compare builds" } });
  sec.appendChild(h("h2", { text: "Compare builds" }));
  sec.appendChild(h("p", { class: "muted", id: "compare-intro",
    text: `Every usable backend against ${c.baseline} (${c.baseline_reason === "chosen" ? "the baseline chosen with --baseline" : "the fastest"}). Layers are aligned by name, then by source ops, then by structure; the per-group times are scaled to the pair's measure so every breakdown adds up to the difference.` }));
  const pairs = h("div", { class: "tabs pair-tabs", id: "pair-tabs", attrs: { role: "tablist", "aria-label": "Pairs" } });
  pairs.addEventListener("keydown", (ev) => arrowTabs(ev, pairs));
  const body = h("div", { id: "pair", attrs: { role: "tabpanel", "aria-labelledby": "pair-tab-0" } });
  sec.appendChild(pairs);
  root.appendChild(sec);
  root.appendChild(body);

  // Graphs are built once per backend and kept while the tab is open.
  const graphs = new Map<number, GraphView>();
  const state = { pair: -1 };
  const open = (i: number) => {
    if (i === state.pair) return;
    state.pair = i;
    host.busy();
    for (const t of pairs.querySelectorAll<HTMLElement>('[role="tab"]')) {
      const on = t.dataset.index === String(i);
      t.classList.toggle("active", on);
      t.setAttribute("aria-selected", on ? "true" : "false");
      t.tabIndex = on ? 0 : -1;
    }
    body.setAttribute("aria-labelledby", "pair-tab-" + i);
    renderPair(body, c.pairs[i], { label: c.pairs[i].a, bi: indexOf(c.pairs[i].a) }, { label: c.pairs[i].b, bi: indexOf(c.pairs[i].b) }, graphs, host);
  };
  c.pairs.forEach((p, i) => {
    const cls = p.verdict === "b_faster" ? "ok" : p.verdict === "b_slower" ? "bad" : "neutral";
    pairs.appendChild(h("button", { class: "tab", id: "pair-tab-" + i, attrs: { role: "tab", "aria-selected": "false", "aria-controls": "pair", "data-index": String(i), "data-b": p.b, tabindex: "-1" },
      on: { click: () => open(i) } },
    h("span", { class: "tab-label", text: `${p.a} vs ${p.b}` }), h("span", { class: "pair-delta pair-" + cls, text: signedPct(p.delta_pct) })));
  });
  open(0);
}

function renderPair(body: HTMLElement, p: ComparisonPair, a: Side, b: Side, graphs: Map<number, GraphView>, host: CompareHost): void {
  clear(body);
  const head = h("section", { class: "panel compare-head", id: "compare-verdict", attrs: { "aria-label": "Verdict" } });
  head.dataset.verdict = p.verdict;
  const vcls = p.verdict === "b_faster" ? "ok" : p.verdict === "b_slower" ? "bad" : "neutral";
  head.appendChild(h("p", { class: "verdict verdict-" + vcls, id: "verdict-text", text: verdictText(p) }));
  const totals = h("p", { id: "compare-totals" },
    h("span", { class: "muted", text: "Measure: " }), h("strong", { id: "compare-measure", text: measureName(p.measure) }), " · ",
    `${p.a} `, h("strong", { id: "compare-a-ms", text: fmtMsAuto(p.a_ms) }), " → ", `${p.b} `, h("strong", { id: "compare-b-ms", text: fmtMsAuto(p.b_ms) }));
  head.appendChild(totals);
  if (p.measure_note) head.appendChild(h("p", { class: "noise", id: "measure-note", attrs: { role: "note" }, text: p.measure_note }));
  const more = verdictDetail(p);
  if (more) head.appendChild(h("p", { class: "muted", id: "compare-summary", text: more }));
  const al = p.alignment;
  head.appendChild(h("p", { class: "muted small", id: "compare-alignment",
    text: `Alignment: ${fmtInt(al.matched)} matched, ${fmtInt(al.split)} split, ${fmtInt(al.merged)} merged, ${fmtInt(al.regrouped)} regrouped, ${fmtInt(al.only_a)} only in ${p.a}, ${fmtInt(al.only_b)} only in ${p.b} ` +
      `(by name ${fmtInt(al.by_name)}, by source op ${fmtInt(al.by_source_op)}, by structure ${fmtInt(al.by_structure)}); ${al.compute_aligned_pct.toFixed(1)} % of compute layers aligned` +
      (al.compute_aligned_pct < 90 ? " — per-group deltas are less certain" : "") + `. Noise: ${p.noise.basis.join("; ")}.` }));
  body.appendChild(head);

  const charts = h("div", { class: "grid2 compare-charts" }, stackedPanel(p), waterfallPanel(p));
  body.appendChild(charts);
  body.appendChild(changesPanel(p));

  const graphBox = h("div", { class: "compare-graph-body", id: "compare-graph-body" });
  const sideTabs = h("div", { class: "toggle", id: "graph-side", attrs: { role: "group", "aria-label": "Graph of" } });
  const graphNote = h("p", { class: "muted small", id: "compare-graph-note", attrs: { "aria-live": "polite" } });
  const graphPanel = h("section", { class: "panel compare-graph", id: "compare-graph", attrs: { "aria-label": "Graph" } },
    h("div", { class: "compare-graph-head" }, h("h3", { text: "Graph" }), sideTabs), graphNote, graphBox);
  // side: the graph shown; pref: the side last chosen with the buttons
  // (a row without layers there shows the other side, once).
  const view = { side: b.bi >= 0 ? "b" : "a", pref: b.bi >= 0 ? "b" : "a", aLayers: new Set<number>(), bLayers: new Set<number>() } as
    { side: "a" | "b"; pref: "a" | "b"; aLayers: Set<number>; bLayers: Set<number> };
  let token = {};
  const showGraph = (side: "a" | "b") => {
    view.side = side;
    for (const btn of sideTabs.querySelectorAll<HTMLElement>("button")) btn.setAttribute("aria-pressed", btn.dataset.side === side ? "true" : "false");
    const s = side === "a" ? a : b;
    const set = side === "a" ? view.aLayers : view.bLayers;
    const t = (token = {});
    clear(graphBox);
    if (s.bi < 0) {
      graphBox.appendChild(h("p", { class: "muted", text: `${s.label} is not a backend of this file: no graph.` }));
      host.setGraph(null);
      host.ready();
      return;
    }
    const have = graphs.get(s.bi);
    const apply = (g: GraphView) => {
      if (!host.live() || t !== token) return;
      clear(graphBox);
      graphBox.appendChild(g.el);
      host.setGraph(g);
      g.shown();
      g.setHighlight(set.size ? set : null);
      g.select(set.size ? firstInOrder(g, set) : -1);
      host.ready();
    };
    if (have) {
      apply(have);
      return;
    }
    host.busy();
    graphBox.appendChild(h("p", { class: "muted", text: `Loading the graph of ${s.label}…` }));
    loadColumns(s.bi).then((cols) => {
      if (!host.live()) return;
      const m = buildModel(window.TRTPERF_DATA!.results[s.bi], s.bi, cols);
      const g = new GraphView(m);
      graphs.set(s.bi, g);
      models.set(g, m);
      apply(g);
    }, (err: Error) => {
      if (t !== token) return;
      clear(graphBox);
      graphBox.appendChild(h("p", { class: "warn", text: err.message }));
      host.ready();
    });
  };
  for (const [side, s] of [["a", a], ["b", b]] as ["a" | "b", Side][]) {
    sideTabs.appendChild(h("button", { class: "toggle-btn", id: "graph-side-" + side, text: `${side.toUpperCase()}: ${s.label}`,
      attrs: { "aria-pressed": "false", "data-side": side }, on: { click: () => {
        view.pref = side;
        showGraph(side);
      } } }));
  }
  const highlight = (aSet: Set<number>, bSet: Set<number>, what: string) => {
    view.aLayers = aSet;
    view.bLayers = bSet;
    let side = view.pref;
    if (side === "a" && !aSet.size && bSet.size && b.bi >= 0) side = "b";
    else if (side === "b" && !bSet.size && aSet.size && a.bi >= 0) side = "a";
    graphNote.textContent = what ? `Highlighted: ${what} — ${aSet.size} layer${aSet.size === 1 ? "" : "s"} of ${a.label}, ${bSet.size} of ${b.label}.` : "";
    showGraph(side);
    if (what) graphPanel.scrollIntoView({ block: "nearest" });
  };
  const changed = h("button", { class: "toggle-btn", id: "highlight-changed", text: "Highlight every listed group that differs",
    on: { click: () => {
      const aSet = new Set<number>();
      const bSet = new Set<number>();
      for (const r of p.rows) {
        if (r.kind === "matched" && !r.changes.length) continue;
        for (const l of r.a_layers) aSet.add(l);
        for (const l of r.b_layers) bSet.add(l);
      }
      table.select(-1);
      highlight(aSet, bSet, "listed groups that are not plain matches or whose build choices changed");
    } } });
  const table = alignedTable(p, (r: PairRow) => highlight(new Set(r.a_layers), new Set(r.b_layers), `${KIND_TEXT[r.kind]} group "${ellipsis(r.b_name || r.a_name, 80)}"`));
  const tablePanel = h("section", { class: "panel compare-aligned", id: "compare-aligned", attrs: { "aria-label": "Aligned layers" } },
    h("div", { class: "compare-graph-head" }, h("h3", { text: "Aligned layers" }), changed), table.el);
  body.appendChild(h("div", { class: "compare-explore" }, tablePanel, graphPanel));
  // The graph is built after the numbers have painted.
  requestAnimationFrame(() => setTimeout(() => {
    if (host.live()) showGraph(view.side);
  }, 0));
}

const models = new WeakMap<GraphView, Model>();

/** The first of a set of layers in topological order. */
function firstInOrder(g: GraphView, set: Set<number>): number {
  const m = models.get(g);
  let first = -1;
  for (const l of set) if (first < 0 || (m && m.pos[l] < m.pos[first])) first = l;
  return first;
}

interface Stack { label: string; role: string; total: number; parts: Map<string, number> }

/** Latency per backend, stacked by type or precision, on the pair's measure.
 *  Every backend whose pair with the baseline uses the same measure is
 *  shown; the selected pair's two are marked. */
function stackedPanel(p: ComparisonPair): HTMLElement {
  const all = (window.TRTPERF_DATA && window.TRTPERF_DATA.comparison ? window.TRTPERF_DATA.comparison.pairs : [p]).filter((q) => q.measure === p.measure && q.a === p.a);
  const box = h("section", { class: "panel", id: "compare-stacked", attrs: { "aria-label": "Latency per backend" } });
  const chart = h("div", { class: "stacks", id: "stacks", attrs: { role: "figure" } });
  const legend = h("div", { class: "legend", id: "stacks-legend" });
  const draw = (by: "type" | "precision") => {
    for (const btn of toggle.querySelectorAll<HTMLElement>("button")) btn.setAttribute("aria-pressed", btn.dataset.by === by ? "true" : "false");
    clear(chart);
    clear(legend);
    const pick = (q: ComparisonPair) => (by === "type" ? q.by_type : q.by_precision);
    const stacks: Stack[] = [];
    const part = (rows: GroupDelta[], side: "a" | "b") => new Map(rows.map((r) => [r.name, side === "a" ? r.a_ms : r.b_ms] as [string, number]));
    stacks.push({ label: p.a, role: "A", total: p.a_ms, parts: part(pick(p), "a") });
    for (const q of all) stacks.push({ label: q.b, role: q.b === p.b ? "B" : "", total: q.b_ms, parts: part(pick(q), "b") });
    // The largest groups get their own colour; the rest are one segment.
    const weight = new Map<string, number>();
    for (const s of stacks) for (const [k, v] of s.parts) weight.set(k, Math.max(weight.get(k) || 0, v));
    const keys = [...weight.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map((e) => e[0]);
    const MAX = 8;
    const own = keys.slice(0, keys.length > MAX + 1 ? MAX : keys.length);
    const rest = keys.length - own.length;
    const typeColor = typeColors(keys);
    const color = (k: string) => (by === "type" ? typeColor.get(k) || "#999" : precisionColor(k));
    const max = Math.max(...stacks.map((s) => s.total), 1e-12);
    chart.setAttribute("aria-label", `Latency per backend on ${measureName(p.measure)}, stacked by ${by}`);
    for (const s of stacks) {
      const track = h("span", { class: "stack-track" });
      let sum = 0;
      const seg = (name: string, ms: number, col: string) => {
        if (!(ms > 0)) return;
        sum += ms;
        const el = h("span", { class: "stack-seg", title: `${name}: ${fmtMsAuto(ms)} (${((100 * ms) / (s.total || 1)).toFixed(1)} % of ${s.label})` });
        el.style.width = (100 * ms) / max + "%";
        el.style.background = col;
        el.dataset.ms = String(ms);
        track.appendChild(el);
      };
      for (const k of own) seg(k, s.parts.get(k) || 0, color(k));
      let other = 0;
      for (const [k, v] of s.parts) if (!own.includes(k)) other += v;
      if (rest) seg(`${rest} other ${by === "type" ? "types" : "precisions"}`, other, "#aab3bf");
      const row = h("div", { class: "stack-row" + (s.role ? " stack-pair" : ""), attrs: { "data-label": s.label, "data-total": String(s.total) } },
        h("span", { class: "stack-label", title: s.label }, s.role ? h("span", { class: "role", text: s.role }) : null, s.label),
        track, h("span", { class: "bar-value", text: fmtMsAuto(s.total) }));
      row.dataset.sum = String(sum);
      chart.appendChild(row);
    }
    for (const k of own) legend.appendChild(h("span", { class: "legend-item" }, swatch(color(k)), k));
    if (rest) legend.appendChild(h("span", { class: "legend-item" }, swatch("#aab3bf"), `${rest} other ${by === "type" ? "types" : "precisions"}`));
  };
  const toggle = h("div", { class: "toggle", id: "stack-by", attrs: { role: "group", "aria-label": "Stack by" } },
    h("button", { class: "toggle-btn", text: "By type", attrs: { "data-by": "type", "aria-pressed": "true" }, on: { click: () => draw("type") } }),
    h("button", { class: "toggle-btn", text: "By precision", attrs: { "data-by": "precision", "aria-pressed": "false" }, on: { click: () => draw("precision") } }));
  box.appendChild(h("div", { class: "compare-graph-head" }, h("h3", { text: "Latency per backend" }), toggle));
  box.appendChild(h("p", { class: "muted small", text: `On ${measureName(p.measure)}; per-layer times scaled to it.` + (all.length + 1 < (window.TRTPERF_DATA?.comparison?.pairs.length || 0) + 1 ? " Backends measured otherwise are left out." : "") }));
  box.appendChild(chart);
  box.appendChild(legend);
  draw("type");
  return box;
}

function swatch(col: string): HTMLElement {
  const s = h("span", { class: "swatch" });
  s.style.background = col;
  return s;
}

interface Step { name: string; delta: number; count: string }

/** Where the difference comes from: A's total, then one bar per group
 *  delta (the smallest lumped into one), then B's total. The steps add up
 *  to delta_ms exactly as the pair's breakdowns do. */
function waterfallPanel(p: ComparisonPair): HTMLElement {
  const box = h("section", { class: "panel", id: "compare-waterfall", attrs: { "aria-label": "Where the difference comes from" } });
  const chart = h("div", { class: "waterfall", id: "waterfall", attrs: { role: "figure" } });
  const foot = h("p", { class: "muted small", id: "waterfall-foot" });
  const draw = (by: "type" | "region" | "precision") => {
    for (const btn of toggle.querySelectorAll<HTMLElement>("button")) btn.setAttribute("aria-pressed", btn.dataset.by === by ? "true" : "false");
    clear(chart);
    const groups = (by === "type" ? p.by_type : by === "region" ? p.by_region : p.by_precision).slice().sort((x, y) => Math.abs(y.delta_ms) - Math.abs(x.delta_ms));
    const MAX = 10;
    const steps: Step[] = [];
    const shown = groups.length > MAX + 1 ? groups.slice(0, MAX) : groups;
    for (const g of shown) steps.push({ name: g.name, delta: g.delta_ms, count: `${g.a_count} → ${g.b_count} layers` });
    if (groups.length > shown.length) {
      const rest = groups.slice(shown.length);
      steps.push({ name: `${rest.length} other ${by === "type" ? "types" : by === "region" ? "regions" : "precisions"}`, delta: rest.reduce((s, g) => s + g.delta_ms, 0),
        count: `${rest.reduce((s, g) => s + g.a_count, 0)} → ${rest.reduce((s, g) => s + g.b_count, 0)} layers` });
    }
    // Running totals; the axis is zoomed when the steps are small against
    // the totals (it says so).
    const cum = [p.a_ms];
    for (const s of steps) cum.push(cum[cum.length - 1] + s.delta);
    cum.push(p.b_ms);
    const hi = Math.max(...cum, 1e-12);
    const lowest = Math.min(...cum);
    let lo = 0;
    if (hi - lowest < 0.3 * hi) lo = Math.max(0, lowest - Math.max((hi - lowest) * 0.5, hi * 0.02));
    const x = (v: number) => (100 * (v - lo)) / (hi - lo || 1);
    const bar = (label: string, title: string, from: number, to: number, cls: string, value: string, ms: number) => {
      const fill = h("span", { class: "wf-bar " + cls, title });
      fill.style.left = x(Math.min(from, to)) + "%";
      fill.style.width = Math.max(0, x(Math.max(from, to)) - x(Math.min(from, to))) + "%";
      const row = h("div", { class: "wf-row", attrs: { "data-ms": String(ms) } },
        h("span", { class: "wf-label", title: label, text: label }), h("span", { class: "wf-track" }, fill), h("span", { class: "bar-value wf-value", text: value }));
      chart.appendChild(row);
      return row;
    };
    bar(`${p.a} (A)`, `${p.a}: ${fmtMsAuto(p.a_ms)}`, lo, p.a_ms, "wf-total" + (lo > 0 ? " wf-cut" : ""), fmtMsAuto(p.a_ms), p.a_ms).classList.add("wf-first");
    let at = p.a_ms;
    for (const s of steps) {
      const cls = s.delta > 0 ? "wf-up" : s.delta < 0 ? "wf-down" : "wf-zero";
      bar(s.name, `${s.name}: ${signedMs(s.delta)} (${s.count})`, at, at + s.delta, cls, signedMs(s.delta), s.delta).classList.add("wf-step");
      at += s.delta;
    }
    bar(`${p.b} (B)`, `${p.b}: ${fmtMsAuto(p.b_ms)}`, lo, p.b_ms, "wf-total" + (lo > 0 ? " wf-cut" : ""), fmtMsAuto(p.b_ms), p.b_ms).classList.add("wf-last");
    chart.setAttribute("aria-label", `Waterfall from ${p.a} ${fmtMsAuto(p.a_ms)} to ${p.b} ${fmtMsAuto(p.b_ms)} by ${by}`);
    foot.textContent = `${steps.length} step${steps.length === 1 ? "" : "s"} sum to ${signedMs(at - p.a_ms)} = B − A (${signedMs(p.delta_ms)}).` +
      (lo > 0 ? ` The axis starts at ${fmtMsAuto(lo)} (cut bars) so the steps are visible.` : "") + " Red: B spends more time; green: less.";
  };
  const toggle = h("div", { class: "toggle", id: "waterfall-by", attrs: { role: "group", "aria-label": "Steps by" } },
    h("button", { class: "toggle-btn", text: "By type", attrs: { "data-by": "type", "aria-pressed": "true" }, on: { click: () => draw("type") } }),
    h("button", { class: "toggle-btn", text: "By region", attrs: { "data-by": "region", "aria-pressed": "false" }, on: { click: () => draw("region") } }),
    h("button", { class: "toggle-btn", text: "By precision", attrs: { "data-by": "precision", "aria-pressed": "false" }, on: { click: () => draw("precision") } }));
  box.appendChild(h("div", { class: "compare-graph-head" }, h("h3", { text: "Where the difference comes from" }), toggle));
  box.appendChild(chart);
  box.appendChild(foot);
  draw("type");
  return box;
}

/** Conversions one side runs and the other does not, and the counts of
 *  matched layers whose build choices changed. */
function changesPanel(p: ComparisonPair): HTMLElement {
  const box = h("section", { class: "panel", id: "compare-changes", attrs: { "aria-label": "What changed" } });
  box.appendChild(h("h3", { text: "What changed" }));
  const cards = h("div", { class: "cards compare-cards" });
  const card = (id: string, label: string, value: string, sub: string) =>
    cards.appendChild(h("div", { class: "card", id }, h("div", { class: "card-label", text: label }), h("div", { class: "card-value", text: value }), h("div", { class: "card-sub", text: sub })));
  const ch = p.changes;
  card("change-tactic", "Tactic changes", fmtInt(ch.tactic), "matched layers with another kernel");
  card("change-tensor-core", "Tensor-core changes", fmtInt(ch.tensor_core), "kernel moved on or off tensor cores");
  card("change-precision", "Precision changes", fmtInt(ch.precision), "matched layers computing in another precision");
  card("change-format", "Format changes", fmtInt(ch.format), "matched layers writing another format");
  box.appendChild(cards);
  const one = p.one_sided || [];
  if (!one.length) {
    box.appendChild(h("p", { class: "muted", id: "one-sided", text: "No reformat or Q/DQ layer runs on one side only." }));
  } else {
    const ul = h("ul", { class: "one-sided", id: "one-sided" });
    for (const o of one) {
      const side = o.side === "a" ? p.a : p.b;
      const other = o.side === "a" ? p.b : p.a;
      ul.appendChild(h("li", { attrs: { "data-side": o.side, "data-kind": o.kind } },
        h("strong", { text: `${fmtInt(o.count)} ${o.kind === "qdq" ? "Q/DQ" : "reformat"} layer${o.count === 1 ? "" : "s"}` }),
        ` run in ${side} only, not in ${other}: ${fmtMsAuto(o.ms)}`));
    }
    box.appendChild(h("h4", { text: "Conversions on one side only" }));
    box.appendChild(ul);
  }
  return box;
}

type SortKey = "order" | "kind" | "a_name" | "b_name" | "type" | "a_ms" | "b_ms" | "delta_ms" | "confidence";

/** The aligned groups, sortable by every column; a row click calls onPick. */
function alignedTable(p: ComparisonPair, onPick: (r: PairRow) => void): { el: HTMLElement; select(i: number): void } {
  const rows = p.rows || [];
  const order = rows.map((_, i) => i);
  let key: SortKey = "order";
  let dir = 1;
  let picked = -1;
  const tbody = h("tbody");
  const cols: [SortKey, string, string][] = [
    ["kind", "Kind", ""], ["a_name", `A: ${p.a}`, ""], ["b_name", `B: ${p.b}`, ""], ["type", "Type", ""],
    ["a_ms", "A ms", "c-num"], ["b_ms", "B ms", "c-num"], ["delta_ms", "Δ ms", "c-num"], ["order", "Changes", ""], ["confidence", "Match", "c-num"],
  ];
  const ths: HTMLElement[] = [];
  const headRow = h("tr");
  for (const [k, label, cls] of cols) {
    if (label === "Changes") {
      headRow.appendChild(h("th", { class: "k-changes", text: label }));
      continue;
    }
    const th = h("th", { class: `${cls} k-${k}`, attrs: { "data-key": k } },
      h("button", { class: "sort-head", text: label, title: k === "confidence" ? "Match confidence: how sure the alignment of the group is; click to sort" : "Click to sort",
        attrs: { "data-key": k }, on: { click: () => sortBy(k) } }));
    ths.push(th);
    headRow.appendChild(th);
  }
  const value = (r: PairRow, k: SortKey): number | string => {
    switch (k) {
      case "kind": return r.kind;
      case "a_name": return r.a_name;
      case "b_name": return r.b_name;
      case "type": return r.type;
      case "a_ms": return r.a_ms;
      case "b_ms": return r.b_ms;
      case "delta_ms": return r.delta_ms;
      case "confidence": return r.confidence;
      default: return 0;
    }
  };
  const names = (list: number[], name: string) => (list.length > 1 ? `${name} (+${list.length - 1} more)` : name || "—");
  const render = () => {
    clear(tbody);
    for (const i of order) {
      const r = rows[i];
      const up = r.delta_ms > 0;
      const tr = h("tr", { class: "cmp-row" + (i === picked ? " selected" : ""), attrs: { tabindex: "0", "data-row": String(i), "aria-selected": i === picked ? "true" : "false" },
        on: {
          click: () => pick(i),
          keydown: (ev: Event) => {
            const k = (ev as KeyboardEvent).key;
            if (k === "Enter" || k === " ") {
              ev.preventDefault();
              pick(i);
            }
          },
        } },
      h("td", null, badge(KIND_TEXT[r.kind], "kind-" + r.kind)),
      h("td", { title: r.a_name }, h("span", { class: "mono cmp-name", text: names(r.a_layers, r.a_name) })),
      h("td", { title: r.b_name }, h("span", { class: "mono cmp-name", text: names(r.b_layers, r.b_name) })),
      h("td", { class: "cmp-type", title: r.type + (r.region ? ` · region ${r.region}` : ""), text: r.type }),
      h("td", { class: "c-num", text: r.a_layers.length ? fmtMsAuto(r.a_ms) : "—" }),
      h("td", { class: "c-num", text: r.b_layers.length ? fmtMsAuto(r.b_ms) : "—" }),
      h("td", { class: "c-num " + (up ? "delta-up" : r.delta_ms < 0 ? "delta-down" : ""), text: signedMs(r.delta_ms) }),
      h("td", { class: "cmp-changes", text: r.changes.join("; ") }),
      h("td", { class: "c-num", title: r.reason + (r.stage !== "none" ? ` (by ${r.stage.replace(/_/g, " ")})` : ""), text: `${Math.round(100 * r.confidence)} %` }));
      tbody.appendChild(tr);
    }
  };
  const sortBy = (k: SortKey) => {
    if (key === k) dir = -dir;
    else {
      key = k;
      dir = typeof value(rows[0] || ({} as PairRow), k) === "number" ? -1 : 1;
    }
    order.sort((x, y) => {
      const vx = value(rows[x], k);
      const vy = value(rows[y], k);
      const c = typeof vx === "number" && typeof vy === "number" ? vx - vy : String(vx) < String(vy) ? -1 : String(vx) > String(vy) ? 1 : 0;
      return dir * c || x - y;
    });
    // aria-sort on the sorted column only (as the layer table does).
    for (const th of ths) {
      if (th.dataset.key === k) th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    }
    render();
  };
  const pick = (i: number) => {
    picked = i;
    for (const tr of tbody.querySelectorAll<HTMLElement>("tr")) {
      const on = tr.dataset.row === String(i);
      tr.classList.toggle("selected", on);
      tr.setAttribute("aria-selected", on ? "true" : "false");
    }
    if (i >= 0) onPick(rows[i]);
  };
  render();
  const note = rows.length < countGroups(p)
    ? `${fmtInt(rows.length)} largest of ${fmtInt(countGroups(p))} groups by |Δ|; the other ${fmtInt(p.rows_omitted)} sum to ${signedMs(p.rows_omitted_delta_ms)}. Click a row to highlight its layers in the graph.`
    : `${fmtInt(rows.length)} groups. Click a row to highlight its layers in the graph.`;
  const el = h("div", { class: "cmp-table-wrap" },
    h("p", { class: "muted small", id: "aligned-note", text: note }),
    h("div", { class: "table-scroll" }, h("table", { class: "tensors cmp-table", id: "aligned-table" }, h("thead", null, headRow), tbody)));
  return { el, select: (i: number) => pick(i) };
}

function countGroups(p: ComparisonPair): number {
  return (p.rows ? p.rows.length : 0) + (p.rows_omitted || 0);
}
