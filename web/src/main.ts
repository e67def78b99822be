// Entry point: reads window.TRTPERF_DATA (data.js) and
// window.TRTPERF_ANALYSIS (analysis.js) and builds the report.
import { h, badge, clear, keepTokens } from "./dom";
import { barChart } from "./charts";
import { GraphView } from "./graph";
import { buildModel, distinct, setTactics, type Model } from "./model";
import { analysisPanel, conversionsView, findingsPanel, isProfileOnly, isTimed, showDetails, validationPanel } from "./panels";
import { hasLogFacts, latencyPanel, markPareto, owned, paretoPanel, sourcesPanel, topFindingsPanel } from "./overview";
import { HierarchyView } from "./hierarchy";
import { latencyView } from "./run";
import { RooflineView } from "./roofline";
import { arrowTabs, ViewTabs } from "./tabs";
import { showCompare } from "./compare";
import { loadColumns, loadTactics } from "./loader";
import { LayerTable } from "./table";
import { TYPE_PALETTE } from "./colors";
import type { AnalyzeData, Backend, Breakdown, Finding } from "./types";

interface Current {
  token: object;
  m: Model | null;
  table: LayerTable | null;
  graph: GraphView | null;
  tree?: HierarchyView;
  roof?: RooflineView;
}

let current: Current | null = null;

function header(d: AnalyzeData, results: Backend[], onTab: (i: number) => void, onCompare: (() => void) | null): HTMLElement {
  const comps = (d.model_components || []).join(", ");
  const v = d.validation;
  const tabs = h("nav", { class: "tabs", id: "backend-tabs", attrs: { role: "tablist", "aria-label": "Backends" } });
  tabs.addEventListener("keydown", (ev) => arrowTabs(ev, tabs));
  results.forEach((b, i) => {
    const mode = b.validation.analysis_mode.replace(/_/g, " ");
    const tab = h("button", { class: "tab", attrs: { role: "tab", "aria-selected": "false", "aria-controls": "backend", "data-label": b.label, "data-index": String(i) }, on: { click: () => onTab(i) } },
      h("span", { class: "tab-label", text: b.label }), badge(statusWord(b), statusWord(b)), h("span", { class: "tab-mode", text: mode }));
    tabs.appendChild(tab);
  });
  if (onCompare) {
    const n = d.comparison!.pairs.length;
    tabs.appendChild(h("button", { class: "tab tab-compare", id: "compare-tab", attrs: { role: "tab", "aria-selected": "false", "aria-controls": "backend", "data-index": "compare" }, on: { click: onCompare } },
      h("span", { class: "tab-label", text: "Compare" }), h("span", { class: "tab-mode", text: `${n + 1} backends` })));
  }
  return h("header", { class: "top" },
    h("div", { class: "title-row" },
      h("h1", null, h("span", { class: "brand", text: "trtperf" }), " ", h("span", { id: "model-name", text: d.model_name || "unknown model" })),
      headline(v, results)),
    h("div", { class: "subtitle muted" },
      comps ? h("span", { id: "model-components", text: "components: " + comps }) : null,
      h("span", { text: `name confidence: ${d.model_name_confidence}` }),
      d.folder ? h("span", { class: "mono", text: d.folder }) : null,
      h("span", { text: `${d.tool.name} ${d.tool.version}` })),
    tabs);
}

/** Marks the header tab whose data-index is key as the shown one. */
function activateTab(key: string): void {
  for (const t of document.querySelectorAll<HTMLElement>("#backend-tabs .tab")) {
    const on = t.dataset.index === key;
    t.classList.toggle("active", on);
    t.setAttribute("aria-selected", on ? "true" : "false");
    t.tabIndex = on ? 0 : -1;
  }
}

/** The compare tab: every usable backend against the baseline. */
function showComparison(root: HTMLElement, d: AnalyzeData): void {
  activateTab("compare");
  clear(root);
  delete document.body.dataset.ready;
  const token = {};
  current = { token, m: null, table: null, graph: null };
  const live = () => current !== null && current.token === token;
  window.__trtperfFirstRender = window.__trtperfFirstRender || performance.now();
  showCompare(root, d, {
    live,
    setGraph: (g) => {
      if (live()) current!.graph = g;
    },
    busy: () => {
      if (live()) delete document.body.dataset.ready;
    },
    ready: () => {
      if (live()) requestAnimationFrame(markReady);
    },
  });
}

function showBackend(root: HTMLElement, b: Backend, idx: number): void {
  activateTab(String(idx));
  clear(root);
  delete document.body.dataset.ready;
  const view = window.TRTPERF_VIEW![idx];
  const token = {};
  current = { token, m: null, table: null, graph: null };
  const live = () => current !== null && current.token === token;
  const timed = isTimed(b);
  // Selecting works once the columns are in; before that it is queued.
  let pending = -1;
  // open: expand a collapsed graph group holding the layer (false when the
  // graph itself selected it, or for a finding's first layer, whose groups
  // stay collapsed and marked).
  const select = (layer: number, open = true) => {
    if (!live()) return;
    if (!current!.m) {
      pending = layer;
      return;
    }
    current!.table?.select(layer);
    current!.graph?.select(layer, open);
    current!.tree?.select(layer);
    current!.roof?.select(layer);
    markPareto(where, view, layer);
    showDetails(details, current!.m, layer, select);
  };
  const details = h("div", { class: "details", id: "details" }, h("p", { class: "muted", text: "Click a bar, a graph node or a table row to see the layer's tensors, formats, tactic, metadata and parameters." }));

  const failed = b.validation.status !== "passed";
  const v = validationPanel(b);
  if (v) {
    root.appendChild(v);
    keepTokens(v);
  }
  const byRecord = view.rows === "records";
  if (failed && !byRecord && b.layer_count === 0 && hasLogFacts(b)) {
    // Log-derived: what the companion files (a trtexec log) say, and from
    // which lines; no layers to explore.
    const first = h("div", { class: "first-screen log-screen", id: "first-screen" }, latencyPanel(b, view, false), sourcesPanel(b),
      (b.issues || []).length ? topFindingsPanel(b, false, () => undefined) : null);
    root.appendChild(first);
    keepTokens(first);
    root.appendChild(analysisPanel(window.TRTPERF_ANALYSIS));
    window.__trtperfFirstRender = window.__trtperfFirstRender || performance.now();
    markReady();
    return;
  }
  if (failed && !byRecord) {
    root.appendChild(analysisPanel(window.TRTPERF_ANALYSIS));
    markReady();
    return;
  }
  // The columns script is the largest on the way to an interactive table
  // and graph: the browser reads, decodes and parses it on other threads,
  // so it starts loading before the first screen is built. (Its errors are
  // shown once the first screen is up.)
  performance.mark("trtperf:load");
  const columns = loadColumns(idx);
  columns.catch(() => undefined);
  const onFinding = (f: Finding) => {
    // Findings own layers, or (profile_only) records: the rows of such a
    // backend are its records, in profile order.
    const m = current?.m;
    const o = owned(f);
    const rows = o.what === "record" ? (m && m.records ? o.list : o.list.map(() => -1)) : o.list.map((l) => (m ? m.rowOf(l) : l));
    const set = new Set(rows.filter((r) => r >= 0));
    current?.table?.setHighlight(set, `${set.size} ${o.what}s of "${f.title}"`);
    current?.graph?.setHighlight(set);
    const first = rows.find((r) => r >= 0);
    if (first !== undefined) select(first, false);
    document.getElementById("explorer")?.scrollIntoView();
  };
  const how = latencyPanel(b, view, timed);
  const where = paretoPanel(b, view, select);
  // Where the time goes by kind: in the first screen's columns.
  // Both under the Pareto chart: the "How fast" column grows with the run
  // card and noise notes and pushed the precision chart below the fold.
  const charts = h("div", { id: "breakdowns" });
  where.appendChild(charts);
  if (timed) {
    // The kinds' source: the layer info, or (profile_only) the layer names.
    const guessed = (b.tag_breakdown || []).some((t) => t.name === "type_guessed_from_name");
    charts.appendChild(barChart("chart-type", guessed ? "Time by layer kind (guessed from layer names)" : "Time by layer type", b.type_breakdown || [], true, 6));
    const dla = (b.overview || []).find((o) => o.id === "profile_dla");
    if (dla) {
      // Where the layers ran, as the analysis reads the DLA records
      // (profile_dla): the DLA's subgraph records and the GPU's hand-over
      // and wait records are DLA time (the DLA runs asynchronously; its
      // time lands on the record that waits for it), the rest the GPU's.
      const mt = dla.metrics || {};
      const total = (b.type_breakdown || []).reduce((a, t) => a + t.time_ms, 0);
      const dlaMs = mt.time_ms || 0;
      charts.appendChild(barChart("chart-placement", "Time by placement (DLA: its subgraph, hand-over and wait records)", [
        { name: "DLA", count: mt.dla_layers || 0, time_ms: dlaMs, percentage: total > 0 ? (100 * dlaMs) / total : 0 },
        { name: "GPU", count: mt.gpu_layers || 0, time_ms: Math.max(0, total - dlaMs), percentage: total > 0 ? Math.max(0, 100 - (100 * dlaMs) / total) : 0 },
      ], true, 2));
    }
    if (!isProfileOnly(b) || (b.precision_breakdown || []).some((p) => p.name !== "unknown")) {
      charts.appendChild(barChart("chart-precision", "Time by precision", b.precision_breakdown || [], true, 5));
    }
  }
  const first = h("div", { class: "first-screen", id: "first-screen" }, how, topFindingsPanel(b, timed, onFinding), where);
  root.appendChild(first);
  keepTokens(first);
  root.appendChild(analysisPanel(window.TRTPERF_ANALYSIS));

  const status = h("p", { class: "muted", id: "explorer-status", text: `Loading ${b.layer_count.toLocaleString("en-US")} layers…` });
  const views = new ViewTabs();
  const explorer = h("section", { class: "panel", id: "explorer" }, h("h2", { text: byRecord ? "Profiled layers" : "Layers" }),
    byRecord ? h("p", { class: "muted", id: "records-note", text: "One row per profile record, in profile order. No graph: the layer info is missing or names-only, so which layer feeds which is unknown." })
      : failed ? h("p", { class: "warn", text: "Not interpretable: this backend failed validation; the layers are shown as read." }) : null,
    timed || byRecord ? null : h("p", { class: "muted", text: "Layer info only: no profile, so there are no measured timing columns." }), status);
  const main = h("div", { class: "explorer-main" }, views.el);
  const side = h("aside", { class: "side", id: "side", attrs: { "aria-label": "Layer details" } }, h("h2", { text: "Layer details" }), details);
  explorer.appendChild(h("div", { class: "explorer" }, main, side));
  root.appendChild(explorer);
  const all = findingsPanel(b, onFinding);
  root.appendChild(all);
  keepTokens(all);

  window.__trtperfFirstRender = window.__trtperfFirstRender || performance.now();
  // Build the heavy parts after the first screen has painted.
  requestAnimationFrame(() => setTimeout(() => {
    columns.then((cols) => {
      if (!live()) return;
      phase("columns", "trtperf:load");
      const m = buildModel(b, idx, cols);
      phase("model");
      if (!timed) {
        charts.appendChild(barChart("chart-type", "Layers by type", countBreakdown(m.type), false, 6));
        charts.appendChild(barChart("chart-precision", "Layers by precision", countBreakdown(m.precision), false, 5));
        if (view.tactic_mix && view.tactic_mix.length) {
          charts.appendChild(barChart("chart-tactics", "Layers by kernel (tactic) family", view.tactic_mix.map((r) => ({ name: r.name, count: r.count, time_ms: 0, percentage: 0 })), false, 6));
        }
        keepTokens(charts);
      }
      const table = new LayerTable(m);
      table.onSelect = select;
      phase("table");
      // Rows that are profile records have no graph.
      const graph = m.records ? null : new GraphView(m);
      if (graph) graph.onSelect = (l) => select(l, false);
      phase("graph-layout");
      current!.m = m;
      current!.table = table;
      current!.graph = graph;
      status.remove();
      if (graph) views.add("graph", "Graph", graph.el, () => graph.shown());
      views.add("table", "Table", table.el, () => table.refreshView());
      views.add("conversions", `Conversions (${view.conversions ? view.conversions.count : 0})`, conversionsView(view, m, (l) => {
        views.show(graph ? "graph" : "table");
        select(l);
      }));
      const tree = new HierarchyView(m);
      tree.onSelect = select;
      current!.tree = tree;
      views.add("hierarchy", "Hierarchy", tree.el, () => tree.shown());
      if (!m.records) {
        const roof = new RooflineView(b, m, cols.roofline || null);
        roof.onSelect = select;
        current!.roof = roof;
        views.add("roofline", "Roofline", roof.el, () => roof.shown());
      }
      if (b.timing && b.timing.measured && b.timing.measured.per_iteration) {
        let plot: HTMLElement | null = null;
        const holder = h("div", { class: "latency-holder" });
        views.add("latency", "Latency", holder, () => {
          if (!plot) holder.appendChild(plot = latencyView(b));
        });
      }
      views.show(graph ? "graph" : "table");
      if (pending >= 0) select(pending);
      phase("graph-draw");
      requestAnimationFrame(markReady);
      // The tactic column is not needed to start: it loads afterwards.
      loadTactics(idx, m.n).then((t) => {
        if (!live()) return;
        setTactics(m, t);
        table.tacticsLoaded();
        document.body.dataset.tactics = "1";
      }, (err: Error) => {
        if (!live()) return;
        status.className = "warn";
        status.textContent = err.message;
        explorer.insertBefore(status, explorer.querySelector(".explorer"));
      });
    }, (err: Error) => {
      status.className = "warn";
      status.textContent = err.message;
      markReady();
    });
  }, 0));
}

let lastMark = "";

/** Measures one step of opening a backend (performance "measure" entries
 *  named trtperf:NAME, read by the browser benchmark) from the previous
 *  step, or from the mark from. */
function phase(name: string, from = lastMark): void {
  const mark = "trtperf:" + name + ":end";
  performance.mark(mark);
  try {
    performance.measure("trtperf:" + name, from, mark);
  } catch {
    // from was cleared: nothing to measure
  }
  lastMark = mark;
}

function markReady(): void {
  window.__trtperfReady = window.__trtperfReady || performance.now();
  document.body.dataset.ready = "1";
}

/** Layer counts per value, for backends without timing. */
function countBreakdown(values: string[]): Breakdown[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) || 0) + 1);
  return distinct(values).map((name) => ({ name, count: counts.get(name) || 0, time_ms: 0, percentage: 0 }));
}

function main(): void {
  const app = document.getElementById("app")!;
  clear(app);
  const d = window.TRTPERF_DATA;
  if (!d || !window.TRTPERF_VIEW) {
    app.appendChild(h("p", { class: "failed-banner", text: "data.js is missing or did not load: this folder is not a complete trtperf report. Re-run trtperf package." }));
    return;
  }
  const results = d.results || [];
  const body = h("main", { id: "backend", attrs: { role: "tabpanel" } });
  const onTab = (i: number) => showBackend(body, results[i], i);
  const comparable = !!(d.comparison && d.comparison.pairs && d.comparison.pairs.length);
  app.appendChild(header(d, results, onTab, comparable ? () => showComparison(body, d) : null));
  app.appendChild(body);
  if (!results.length) {
    body.appendChild(h("p", { class: "failed-banner", text: "This analysis has no backends: no layer-info or profile dumps were found." }));
    window.__trtperfFirstRender = performance.now();
    markReady();
    return;
  }
  // Open the first backend that passed, else the first.
  let first = results.findIndex((b) => b.validation.status === "passed");
  if (first < 0) first = 0;
  onTab(first);
  window.__trtperf = {
    select: (layer: number) => current?.table?.onSelect(layer),
    locate: (layer: number) => current?.graph?.locate(layer),
    benchRedraw: (k: number) => current?.graph?.benchRedraw(k),
    graphNodes: () => current?.graph?.nodeCount(),
    nodeState: (layer: number) => current?.graph?.nodeState(layer),
    inView: (layer: number) => current?.graph?.inView(layer),
    viewOf: (layer: number) => current?.graph?.viewOf(layer),
    timeBands: () => current?.graph?.timeBands(),
    palette: () => TYPE_PALETTE,
    typeColors: () => (current?.m ? [...current.m.colors.values()] : []),
    edgeReport: () => current?.graph?.edgeReport(),
    textColours: () => current?.graph?.textColours() || [],
    rows: () => Array.from(current?.table?.visibleRows() || []),
    layerByName: (name: string) => (current?.m ? current.m.names.indexOf(name) : -1),
    treemap: () => current?.tree?.report(),
    roofline: () => current?.roof?.report(),
    // The model's columns as the app read them, for the test that holds
    // them to analyze-data.json (NaN, no timing, as null).
    columns: () => {
      const m = current?.m;
      if (!m) return null;
      const num = (v: Float64Array) => Array.from(v, (x) => (isNaN(x) ? null : x));
      const edges: number[] = [];
      for (let i = 0; i < m.n; i++) for (let k = m.outStart[i]; k < m.outStart[i + 1]; k++) edges.push(i, m.outAdj[k]);
      return { names: m.names, type: m.type, precision: m.precision, avg: num(m.avg), pct: num(m.pct), order: Array.from(m.order), edges };
    },
  };
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main);
else main();

/** A backend that failed the gate but is analysed on what its files hold
 * (a profile without layer info, measured time without per-layer data):
 * "partial", as the CLI summary says, not a failure. */
function statusWord(b: Backend): string {
  const m = b.validation.analysis_mode;
  return b.validation.status === "failed" && (m === "profile_only" || m === "measured_only") ? "partial" : b.validation.status;
}

/** The folder's gate outcome, with the backends analysed on partial
 * evidence counted, amber when every backend that did not pass is one. */
function headline(v: AnalyzeData["validation"], results: Backend[]): HTMLSpanElement {
  const partial = results.filter((b) => statusWord(b) === "partial").length;
  const text = `${v.status}: ${v.passed_count} of ${v.backend_count} backend${v.backend_count === 1 ? "" : "s"} usable` + (partial ? `, ${partial} partial` : "");
  const kind = v.status === "failed" && partial > 0 && partial === v.backend_count - v.passed_count ? "partial" : v.status;
  return badge(text, kind);
}
