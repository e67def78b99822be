// The first screen of a backend: how fast (the latency people should
// quote, with its source, beside the profiled layer sum), what to do (the
// top findings with the time they can recover) and where the time goes (a
// Pareto chart of the slowest layers).
import { h, svg, badge, clear, fmtInt, fmtMs, fmtPct, ellipsis, keepTokens } from "./dom";
import { runCard } from "./run";
import type { Backend, BackendView, DiagnosisRef, Finding, FindingPrice, TopLayer } from "./types";

/** A finding with the price fields when the analysis has them. */
export type PricedFinding = Finding & FindingPrice;

export interface Latency {
  ms: number | null;
  /** what the number is, for people */
  source: string;
  /** true when the number was measured, not summed from layer times */
  measured: boolean;
  /** sum of profiled layer averages (null without timing) */
  layerSum: number | null;
  /** true when ms is the layer sum a partial table's percentages imply */
  implied?: boolean;
}

function num(v: unknown): number | null {
  return typeof v === "number" && isFinite(v) ? v : null;
}

export function latencyOf(b: Backend, timed: boolean): Latency {
  const t = b.timing;
  const layerSum = t && timed ? t.average_inference_ms : null;
  const m = t ? t.measured : null;
  if (m) {
    const src = m.source ? ` (${m.source.file}, ${m.source.kind.replace(/_/g, " ")})` : "";
    const n = m.samples ? ` of ${fmtInt(m.samples)} samples` : "";
    const gpu = num(m.gpu_compute_ms && m.gpu_compute_ms.median);
    if (gpu !== null && gpu > 0) return { ms: gpu, source: `measured GPU compute time, median${n}${src}`, measured: true, layerSum };
    const lat = num(m.latency_ms && m.latency_ms.median);
    if (lat !== null && lat > 0) return { ms: lat, source: `measured latency, median${n}${src}`, measured: true, layerSum };
  }
  if (t && t.end_to_end && t.end_to_end.median_ms > 0) {
    return { ms: t.end_to_end.median_ms, source: `measured host latency (H2D + compute + D2H), median of ${fmtInt(t.end_to_end.iterations)} inferences (${t.end_to_end.source})`, measured: true, layerSum };
  }
  const d = (b as Backend & { diagnosis?: DiagnosisRef | null }).diagnosis;
  // A predicted reference (layer_only: the cost model) is no measurement:
  // latencyPanel shows it marked PREDICTED.
  if (d && num(d.reference_ms) !== null && d.reference_source && d.reference_source !== "layer_sum" && d.reference_source !== "predicted") {
    return { ms: d.reference_ms!, source: `measured: ${d.reference_source.replace(/_/g, " ")}`, measured: true, layerSum };
  }
  // A pasted fragment of a per-layer table: its rows' sum is not the
  // engine's; the layer sum their percentages imply is (as the summary's
  // "priced on" line says).
  const implied = d ? num(d.layer_sum_ms) : null;
  if (d && d.reference_source === "layer_sum" && layerSum !== null && implied !== null && implied > layerSum * 1.01) {
    return { ms: implied, source: `layer sum the rows' percentages imply: the rows read (a partial table) sum to ${fmtMs(layerSum)} (no measured latency in the dumps)`, measured: false, layerSum, implied: true };
  }
  return { ms: layerSum, source: layerSum === null ? "no timing" : "sum of profiled layer averages (no measured latency in the dumps)", measured: false, layerSum };
}

/** "How fast": the latency, its source, the layer sum and a noise warning. */
export function latencyPanel(b: Backend, view: BackendView, timed: boolean): HTMLElement {
  const lat = latencyOf(b, timed);
  const sec = h("section", { class: "panel headline", id: "latency", attrs: { "aria-label": "Latency" } });
  sec.appendChild(h("h2", { text: "How fast" }));
  const pr = b.prediction;
  if (lat.ms === null && pr && pr.total_ms > 0) {
    // layer_only: the cost model's prediction, said to be one.
    const big = h("div", { class: "big-number predicted", id: "latency-value", text: "≈ " + fmtMs(pr.total_ms) });
    sec.appendChild(big);
    sec.dataset.value = String(pr.total_ms);
    sec.dataset.measured = "0";
    sec.dataset.predicted = "1";
    sec.appendChild(h("p", { class: "predicted-note", id: "latency-source",
      text: `PREDICTED, not measured: the per-layer cost model's layer sum on ${pr.device || "an assumed GPU"}` +
        (pr.device_source === "default_class" ? " (an assumed device class)" : pr.device_source === "folder" ? " (another backend's device)" : "") +
        (pr.error_pct ? `; its median error on the calibration corpus is ±${pr.error_pct.toFixed(0)}%` : "") + ". Profile the engine for the real time." }));
    appendFacts(sec, b, view, timed);
    return sec;
  }
  const big = h("div", { class: "big-number", id: "latency-value", text: lat.ms === null ? "—" : (lat.implied ? "≈ " : "") + fmtMs(lat.ms) });
  sec.appendChild(big);
  if (lat.ms !== null) sec.dataset.value = String(lat.ms);
  sec.dataset.measured = lat.measured ? "1" : "0";
  sec.appendChild(h("p", { class: "muted", id: "latency-source", text: lat.source }));
  if (lat.measured && lat.layerSum !== null) {
    const ratio = lat.ms ? lat.layerSum / lat.ms : NaN;
    const sum = h("p", { id: "latency-sum" }, "Layer sum ", h("strong", { text: fmtMs(lat.layerSum) }),
      isFinite(ratio) ? h("span", { class: "muted", id: "profile-overhead", text: ` · profiling overhead ${ratio.toFixed(2)}× (the layer sum over the measured time)` }) : null);
    sum.dataset.value = String(lat.layerSum);
    sec.appendChild(sum);
  } else if (lat.layerSum !== null) {
    const sum = h("p", { id: "latency-sum", class: "muted", text: "Per-layer profiling adds overhead; add trtexec --exportTimes output beside the dumps for the real latency." });
    sum.dataset.value = String(lat.layerSum);
    sec.appendChild(sum);
  }
  const m = b.timing ? b.timing.measured : null;
  const card = runCard(b);
  if (card) sec.appendChild(card);
  if (m) {
    if (m.few_samples || (m.cv !== null && m.cv > 0.05)) {
      sec.appendChild(h("p", { class: "noise", id: "measured-noise", attrs: { role: "note" },
        text: `The measurement is noisy: ${m.samples !== null ? fmtInt(m.samples) + " samples" : "few samples"}${m.cv !== null ? `, coefficient of variation ${(100 * m.cv).toFixed(1)}%` : ""}. Run trtexec longer (--duration=10) on an idle GPU.` }));
    }
  }
  if (timed && b.count !== null && b.count < 10) {
    sec.appendChild(h("p", { class: "noise", id: "noise-warning", attrs: { role: "note" },
      text: `Noisy: the profile averages ${b.count === 1 ? "a single iteration" : `only ${b.count} iterations`}. Small layer times are unreliable; re-profile with more iterations (trtexec --iterations=100 --avgRuns=10).` }));
  }
  appendFacts(sec, b, view, timed);
  return sec;
}

/** The card's last line: layers, concentration, conversions. */
function appendFacts(sec: HTMLElement, b: Backend, view: BackendView, timed: boolean): void {
  const facts = h("p", { class: "facts" });
  // A profile_only backend counts its profiled layers (its layer info is
  // missing or names-only).
  const byRecord = b.validation.analysis_mode === "profile_only" && b.profile_count > 0;
  const nl = byRecord ? b.profile_count : b.layer_count;
  const none = nl === 0 && b.validation.analysis_mode === "measured_only";
  const layers = h("span", { id: "card-layers", text: none ? "no per-layer data" : `${fmtInt(nl)} ${byRecord ? "profiled " : ""}layers` });
  layers.dataset.value = String(nl);
  facts.appendChild(layers);
  if (b.concentration && timed) facts.appendChild(h("span", { text: ` · 80% of the time in ${fmtInt(b.concentration.layers_80)} layer${b.concentration.layers_80 === 1 ? "" : "s"}` }));
  if (view.conversions && view.conversions.count) {
    const conv = h("span", { id: "card-conversions", text: ` · ${fmtInt(view.conversions.count)} format conversion${view.conversions.count === 1 ? "" : "s"}${timed ? " (" + fmtMs(view.conversions.time_ms) + ")" : ""}` });
    conv.dataset.value = String(view.conversions.count);
    facts.appendChild(conv);
  }
  sec.appendChild(facts);
}

/** Findings in the analysis' order: by score, which weighs the recoverable
 *  share by confidence and ranks accuracy trade-offs after the build's own
 *  fixes, so the report says "do this first" as the summary does. */
export function rankedFindings(b: Backend): PricedFinding[] {
  return (b.issues || []).slice();
}

/** How a finding's price was made, in words (contract price_basis). */
export function priceBasisText(basis: string | undefined): string {
  switch (basis) {
    case "sibling_measured":
      return "measured on a sibling backend";
    case "model":
      return "cost model";
    case "estimate_guessed_kinds":
      return "estimate on measured records, kinds guessed from names";
  }
  return basis || "";
}

/** What a finding owns, as the table's rows show them: its records for a
 *  profile_only backend (issues[].records), else its layers. */
export function owned(f: Finding): { what: "layer" | "record"; list: number[] } {
  if (f.records && f.records.length) return { what: "record", list: f.records };
  return { what: "layer", list: f.layers || [] };
}

/** The button that highlights what a finding owns ("Show 7 layers"). */
export function showOwned(f: Finding, onFinding: (f: Finding) => void): HTMLElement | null {
  const o = owned(f);
  const n = new Set(o.list).size;
  return n ? h("button", { class: "linkish show-layers", text: `Show ${n} ${o.what}${n === 1 ? "" : "s"}`, on: { click: () => onFinding(f) } }) : null;
}

/** At the first model-priced finding of a backend whose files name no
 *  GPU (prediction.device_source default_class), the note that the cost
 *  model priced it for a default GPU it assumed, as summary says it; ""
 *  otherwise. The price line itself names the GPU of every model price. */
export function modelDeviceNote(f: Finding, b: Backend): string {
  const p = b.prediction;
  // Said once, at the first model-priced finding, as summary does.
  if (f.price_basis !== "model" || !p || !p.device || (b.issues || []).find((x) => x.price_basis === "model") !== f) return "";
  if (p.device_source === "default_class") {
    return `the cost model priced this for ${p.device}, a DEFAULT it assumed: no file names the GPU, and the price follows the GPU's bandwidth and peaks; name the GPU the engines ran on (trtperf analyze --gpu NAME) to price them for it`;
  }
  return "";
}

/** One line saying what a finding is worth. */
export function worth(f: PricedFinding, lat: Latency, b?: Backend): string {
  const r = num(f.recoverable_ms);
  if (r !== null) {
    const range = num(f.recoverable_low_ms) !== null && num(f.recoverable_high_ms) !== null ? ` (${fmtMs(f.recoverable_low_ms!)}–${fmtMs(f.recoverable_high_ms!)})` : "";
    const share = num(f.recoverable_share) ?? (lat.ms ? (100 * r) / lat.ms : null);
    const p = b && b.prediction;
    const basis = priceBasisText(f.price_basis) + (f.price_basis === "model" && p && p.device ? ` for ${p.device}${p.device_source === "default_class" ? " (assumed)" : ""}` : "");
    return `≈ ${fmtMs(r)} recoverable${range}${share !== null ? ", " + fmtPct(share) + " of the latency" : ""}${basis ? " · " + basis : ""}`;
  }
  return f.share ? `${fmtPct(f.share)} of the layer time at stake (not priced)` : "not priced";
}

/** "What to do": the top findings with their recoverable time and action. */
export function topFindingsPanel(b: Backend, timed: boolean, onFinding: (f: Finding) => void): HTMLElement {
  const lat = latencyOf(b, timed);
  const sec = h("section", { class: "panel", id: "top-findings", attrs: { "aria-label": "What to do" } }, h("h2", { text: "What to do" }));
  const list = rankedFindings(b);
  if (!list.length) {
    const passed = b.validation.status === "passed";
    const profileOnly = b.validation.analysis_mode === "profile_only";
    sec.appendChild(h("p", { class: "muted", text: passed ? "No findings: nothing stands out as slow for this engine."
      : profileOnly ? "No finding from the record names: nothing they show (standalone Q/DQ, reformats, decomposed norms or attention, unfused activations, an FP32 build) is large enough to score. Detailed layer info (formats, precisions, tactics) would show the rest." : "No findings: the backend is not interpretable." }));
    appendOverview(sec, b);
    if (passed) appendChecked(sec, b, 3);
    return sec;
  }
  const ol = h("ol", { class: "top-findings" });
  for (const f of list.slice(0, 3)) {
    ol.appendChild(h("li", { attrs: { "data-id": f.id } },
      h("div", { class: "finding-head" }, h("span", { class: "finding-title", text: f.title }), badge(f.confidence, f.confidence)),
      h("div", { class: "worth", text: worth(f, lat, b) }),
      modelDeviceNote(f, b) ? h("div", { class: "device-note", text: modelDeviceNote(f, b) }) : null,
      f.action || f.next_check ? h("div", { class: "action" }, h("strong", { text: f.action ? "Do: " : "Check: " }), f.action || f.next_check) : null,
      showOwned(f, onFinding)));
  }
  sec.appendChild(ol);
  if (list.length > 3) sec.appendChild(h("a", { class: "more", attrs: { href: "#findings" }, text: `All ${list.length} findings and what is already good ↓` }));
  else appendChecked(sec, b, 3 - list.length);
  return sec;
}

/** The analysis' overview items (where the time goes: context, not
 *  findings), shown when there are no findings, e.g. a profile_only
 *  backend's reformat share and unfused attention read from layer names. */
export function appendOverview(sec: HTMLElement, b: Backend): void {
  const items = (b.overview || []).filter((o) => o.id !== "minor_items");
  if (!items.length) return;
  sec.appendChild(h("h3", { text: "Where the time goes (context)" }));
  const ul = h("ul", { class: "overview-items", id: "overview-items" });
  for (const o of items) {
    const ev = h("ul", { class: "evidence" });
    for (const e of o.evidence || []) ev.appendChild(h("li", { text: e }));
    ul.appendChild(h("li", { attrs: { "data-id": o.id } }, h("span", { class: "finding-title", text: o.title }), ev));
  }
  sec.appendChild(ul);
}

/** Whether a backend has facts from its companion files (a trtexec log,
 *  metadata, --exportTimes) although it has no usable layers or profile:
 *  a log-derived backend. */
export function hasLogFacts(b: Backend): boolean {
  return !!(b.timing && b.timing.measured) || !!b.build || !!b.device || (b.overview || []).length > 0;
}

/** "Where each fact comes from": for a log-derived backend, the overview
 *  items the log gave, then each measured source with its file and lines,
 *  the build's and the device's source files. */
export function sourcesPanel(b: Backend): HTMLElement {
  const sec = h("section", { class: "panel", id: "log-facts", attrs: { "aria-label": "What the files say" } }, h("h2", { text: "What the log says" }));
  const items = (b.overview || []).filter((o) => o.id !== "minor_items");
  if (items.length) {
    const ul = h("ul", { class: "overview-items", id: "overview-items" });
    for (const o of items) {
      const ev = h("ul", { class: "evidence" });
      for (const e of o.evidence || []) ev.appendChild(h("li", { text: e }));
      ul.appendChild(h("li", { attrs: { "data-id": o.id } }, h("span", { class: "finding-title", text: o.title }), ev));
    }
    sec.appendChild(ul);
  }
  sec.appendChild(h("h3", { text: "Which lines gave which facts" }));
  const tb = h("tbody", { id: "fact-sources" });
  const row = (fact: string, value: string, file: string, lines: string) =>
    tb.appendChild(h("tr", null, h("td", { text: fact }), h("td", { class: "c-num", text: value }), h("td", { class: "mono", text: file }), h("td", { class: "mono", text: lines })));
  const m = b.timing ? b.timing.measured : null;
  for (const s of (m && m.sources) || []) {
    const what = s.gpu_compute_median_ms !== null ? ["GPU compute, median", s.gpu_compute_median_ms] : ["latency, median", s.latency_median_ms];
    row(`measured ${what[0]}${s.run ? ` (run ${s.run})` : ""}`, typeof what[1] === "number" ? fmtMs(what[1] as number) : "—", s.file, s.lines || "");
  }
  const bu = b.build;
  if (bu) {
    const files = (bu.sources || []).join(", ");
    if (bu.tensorrt_version) row("TensorRT version", bu.tensorrt_version, files, "");
    if (bu.precision) row("build precision", bu.precision, files, "");
    if (bu.loaded_engine) row("engine loaded (--loadEngine: not built in this run)", bu.loaded_engine, files, "");
  }
  if (b.device) row("GPU", b.device.name, b.device.source, "");
  if (!tb.childElementCount) {
    sec.appendChild(h("p", { class: "muted", text: "No measured numbers, build or device facts in the companion files." }));
  } else {
    sec.appendChild(h("div", { class: "table-scroll" }, h("table", { class: "tensors" },
      h("thead", null, h("tr", null, h("th", { text: "Fact" }), h("th", { text: "Value" }), h("th", { text: "File" }), h("th", { text: "Lines" }))), tb)));
  }
  keepTokens(sec);
  return sec;
}

/** Under fewer than three findings, the panel also says what else was
 *  checked: the candidates too small to score (behind one line) and up to
 *  `room` things that are already good, so a clean engine's panel says why
 *  it is clean rather than staying empty. */
function appendChecked(sec: HTMLElement, b: Backend, room: number): void {
  // "minor_items" is contract.OverviewMinorItems.
  const minor = (b.overview || []).find((o) => o.id === "minor_items");
  if (minor) {
    const ul = h("ul", { class: "evidence" });
    for (const e of minor.evidence || []) ul.appendChild(h("li", { text: e }));
    sec.appendChild(h("details", { class: "minor-items", id: "minor-items" }, h("summary", { text: minor.title }), ul));
  }
  const good = (b.positives || []).slice(0, room);
  if (!good.length) return;
  sec.appendChild(h("h3", { class: "already-good", text: "Already good" }));
  const ul = h("ul", { class: "positives", id: "top-positives" });
  for (const p of good) ul.appendChild(h("li", { class: "positive", text: p.title }));
  sec.appendChild(ul);
  sec.appendChild(h("a", { class: "more", attrs: { href: "#findings" }, text: "All findings and what is already good ↓" }));
}

/** Marks the Pareto bar of a selected layer (row) and says which layer it
 *  is under the chart, with a link down to its details; no mark when the
 *  layer has no bar. */
export function markPareto(sec: HTMLElement, view: BackendView, layer: number): void {
  for (const g of sec.querySelectorAll<SVGElement>(".pareto-bar")) {
    const on = g.dataset.layer === String(layer);
    g.classList.toggle("selected", on);
    g.setAttribute("aria-pressed", on ? "true" : "false");
  }
  const line = sec.querySelector<HTMLElement>("#pareto-selected");
  if (!line) return;
  clear(line);
  const r = (view.top || []).find((x) => x.layer === layer);
  if (!r) return;
  line.append("Selected: ", h("span", { class: "mono cut-line", text: r.name, title: r.name }),
    ` ${fmtMs(r.avg_ms, 4)} (${fmtPct(r.percentage)}, ${r.layer_type}) `,
    h("a", { class: "more", attrs: { href: "#explorer" }, text: "details ↓" }));
  keepTokens(line);
}

/** The slowest layers as bars with their cumulative share of the layer
 *  time, with 50/80/90 % marks; clicking a bar selects its layer. */
export function paretoPanel(b: Backend, view: BackendView, onSelect: (layer: number) => void): HTMLElement {
  const top: TopLayer[] = (view.top || []).slice(0, 20);
  const predicted = b.validation.analysis_mode === "layer_only" && !!b.prediction;
  const sec = h("section", { class: "panel", id: "pareto", attrs: { "aria-label": "Where the time goes" } },
    h("h2", { text: predicted ? "Where the time goes: slowest layers (PREDICTED)" : "Where the time goes: slowest layers" }));
  if (predicted && top.length) sec.appendChild(h("p", { class: "predicted-note", text: "Predicted by the cost model from the layer info and the device, not measured: profile the engine (trtexec --exportProfile) for real times." }));
  if (!top.length) {
    sec.appendChild(h("p", { class: "muted", text: "Needs a per-layer profile." }));
    return sec;
  }
  const W = 560, H = 210, L = 44, R = 40, T = 10, B = 24;
  const pw = W - L - R, ph = H - T - B;
  const max = top[0].avg_ms || 1e-12;
  const el = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", class: "pareto",
    "aria-label": `The ${top.length} slowest layers with their cumulative share of the layer time` });
  // Axes: time on the left, cumulative share on the right.
  el.appendChild(svg("line", { x1: L, y1: T + ph, x2: L + pw, y2: T + ph, class: "axis" }));
  el.appendChild(svg("text", { x: L - 4, y: T + 8, "text-anchor": "end", class: "axis-label" }, fmtMs(max, 3).replace(" ms", "")));
  el.appendChild(svg("text", { x: L - 4, y: T + ph, "text-anchor": "end", class: "axis-label" }, "0"));
  el.appendChild(svg("text", { x: 2, y: T + ph / 2, class: "axis-label" }, "ms"));
  for (const p of [50, 80, 90]) {
    const y = T + ph - (ph * p) / 100;
    el.appendChild(svg("line", { x1: L, y1: y, x2: L + pw, y2: y, class: "mark", "data-mark": p }));
    el.appendChild(svg("text", { x: L + pw + 4, y: y + 4, class: "axis-label" }, `${p}%`));
  }
  const bw = pw / top.length;
  let cum = 0;
  const pts: string[] = [];
  top.forEach((r, i) => {
    const bh = Math.max(1, (r.avg_ms / max) * ph);
    const g = svg("g", { class: "pareto-bar", "data-layer": r.layer, tabindex: 0, role: "button",
      "aria-label": `${r.name}: ${fmtMs(r.avg_ms, 4)}, ${fmtPct(r.percentage)}` });
    g.appendChild(svg("rect", { x: L + i * bw + 1, y: T + ph - bh, width: Math.max(1, bw - 2), height: bh, class: "bar-fill" }));
    // A taller invisible hit area makes short bars easy to click.
    g.appendChild(svg("rect", { x: L + i * bw, y: T, width: bw, height: ph, class: "hit" }));
    g.appendChild(svg("title", {}, `${r.name}\n${r.layer_type} · ${r.precision} · ${fmtMs(r.avg_ms, 4)} · ${fmtPct(r.percentage)}`));
    g.addEventListener("click", () => onSelect(r.layer));
    g.addEventListener("keydown", (ev) => {
      if ((ev as KeyboardEvent).key === "Enter" || (ev as KeyboardEvent).key === " ") {
        ev.preventDefault();
        onSelect(r.layer);
      }
    });
    el.appendChild(g);
    cum += r.percentage;
    pts.push(`${(L + (i + 0.5) * bw).toFixed(1)},${(T + ph - (ph * Math.min(100, cum)) / 100).toFixed(1)}`);
  });
  el.appendChild(svg("polyline", { points: pts.join(" "), class: "cum-line" }));
  el.appendChild(svg("text", { x: L, y: H - 6, class: "axis-label" }, `slowest ${top.length} layers, left to right (click a bar to open it)`));
  sec.appendChild(el);
  // What a click did, where the click was: the bar is marked and this line
  // names the layer (the details panel is further down the page).
  sec.appendChild(h("p", { class: "pareto-selected", id: "pareto-selected", attrs: { "aria-live": "polite" } }));
  const c = b.concentration;
  sec.appendChild(h("p", { class: "muted", id: "pareto-note",
    text: `These ${top.length} layers take ${fmtPct(cum)} of the layer time.` + (c ? ` Half the time is in ${fmtInt(c.layers_50)} layer${c.layers_50 === 1 ? "" : "s"}, 80% in ${fmtInt(c.layers_80)}, 90% in ${fmtInt(c.layers_90)}.` : "") }));
  const first = top[0];
  sec.appendChild(h("p", { class: "slowest" }, "Slowest: ",
    h("button", { class: "linkish mono", id: "slowest-name", text: ellipsis(first.name, 120), title: first.name, on: { click: () => onSelect(first.layer) } }),
    ` ${fmtMs(first.avg_ms, 4)} (${fmtPct(first.percentage)}, ${first.layer_type})`));
  return sec;
}
