// The static panels of a backend: validation, metric cards, AI analysis,
// findings and positives, and the layer details.
import { h, badge, clear, fmtInt, fmtMs, fmtPct, ellipsis, keepTokens } from "./dom";
import { loadDetails } from "./loader";
import type { Model } from "./model";
import { appendOverview, latencyOf, modelDeviceNote, rankedFindings, showOwned, worth } from "./overview";
import type { Analysis, Backend, BackendView, Finding, Layer, Rec, Tensor } from "./types";

export function validationPanel(b: Backend): HTMLElement | null {
  const msgs = b.validation.messages || [];
  const failed = b.validation.status !== "passed";
  if (!failed && !msgs.length) return null;
  const list = h("ul", { class: "messages" });
  for (const m of msgs) {
    list.appendChild(h("li", { class: "msg msg-" + m.level }, badge(m.level, m.level), " ", h("code", { text: m.code }), " ", h("span", { text: m.message })));
  }
  if (failed && isProfileOnly(b)) {
    // Usable in part: the timing per record stands; the layer facts do not.
    return h("section", { class: "panel partial-banner", id: "validation" },
      h("h2", { text: `Backend "${b.label}": profile only — timing per profiled layer, no layer details` }),
      h("p", { text: "The profile is usable: latency, time per layer and time by kind are shown below. Without detailed layer info there is no graph, no formats, precisions or tactics, and no findings that need them; the messages say how to get it." }),
      list);
  }
  if (failed && b.validation.analysis_mode === "measured_only") {
    // Usable in part: what trtexec measured stands; there is no per-layer
    // evidence to analyse.
    return h("section", { class: "panel partial-banner", id: "validation" },
      h("h2", { text: `Backend "${b.label}": measured only — the measured time, no per-layer data` }),
      h("p", { text: "What trtexec measured is usable: the latency below, its source lines and what the files say, and comparisons on measured time. With no per-layer table or layer info there is no breakdown, graph or finding about layers; the messages say how to get them." }),
      list);
  }
  if (failed) {
    return h("section", { class: "panel failed-banner", id: "validation" },
      h("h2", { text: `Backend "${b.label}" failed validation — not interpretable` }),
      h("p", { text: "trtperf refused to analyse this backend: its numbers would be wrong or meaningless. Fix the input as the messages below say, then run trtperf again." }),
      list);
  }
  const det = h("details", { class: "panel", id: "validation" }, h("summary", { text: `${msgs.length} validation message${msgs.length === 1 ? "" : "s"} (the backend passed)` }), list);
  return det;
}

/** Whether a backend has usable per-layer timing. */
export function isTimed(b: Backend): boolean {
  const mode = b.validation.analysis_mode;
  return (mode === "layer_profile" || mode === "profile_only") && b.profile_count > 0 && b.timing !== null;
}

/** Whether a backend is profile_only: timing per profile record, without
 *  (detailed) layer info. */
export function isProfileOnly(b: Backend): boolean {
  return b.validation.analysis_mode === "profile_only" && b.profile_count > 0 && b.timing !== null;
}

export function analysisPanel(a: Analysis | undefined): HTMLElement {
  if (a && a.present) {
    const sec = h("section", { class: "panel", id: "analysis" }, h("h2", { text: "AI analysis" }));
    const body = h("div", { class: "markdown", id: "analysis-body" });
    // The one place HTML is inserted: analyze.md rendered by goldmark and
    // sanitised by bluemonday at package time (no script, handlers,
    // javascript: links or remote images); the CSP blocks scripts anyway.
    body.innerHTML = a.html;
    for (const link of body.querySelectorAll("a[href]")) link.setAttribute("rel", "noopener noreferrer nofollow");
    sec.appendChild(body);
    return sec;
  }
  // Empty: one line, with how to add one behind it.
  return h("details", { class: "panel one-line", id: "analysis" },
    h("summary", { id: "analysis-none", text: "No AI analysis in this report (how to add one)" }),
    h("pre", { class: "cmd", text: "trtperf package --analyze-data REPORT/analyze-data.json --report-dir REPORT --analyze-md analyze.md" }));
}

export function findingsPanel(b: Backend, onFinding: (f: Finding) => void): HTMLElement {
  const sec = h("section", { class: "panel", id: "findings" }, h("h2", { text: "All findings" }));
  const issues = rankedFindings(b);
  const lat = latencyOf(b, isTimed(b));
  if (!issues.length) sec.appendChild(h("p", { class: "muted", text: "No findings for this backend." }));
  const list = h("ol", { class: "findings" });
  for (const f of issues) {
    const item = h("li", { class: "finding", attrs: { "data-id": f.id } },
      h("div", { class: "finding-head" },
        h("span", { class: "finding-title", text: f.title }),
        badge(f.confidence + " confidence", f.confidence),
        h("span", { class: "score", text: `score ${f.score.toFixed(2)}`, title: "recoverable share of the latency × certainty" })),
      h("div", { class: "worth", text: worth(f, lat, b) }),
      modelDeviceNote(f, b) ? h("p", { class: "device-note", text: modelDeviceNote(f, b) }) : null,
      f.action ? h("p", { class: "action" }, h("strong", { text: "Do: " }), f.action) : null,
      evidenceList(f.evidence),
      f.next_check ? h("p", { class: "next" }, h("strong", { text: "Next check: " }), f.next_check) : null,
      showOwned(f, onFinding));
    list.appendChild(item);
  }
  sec.appendChild(list);
  // A profile_only backend's overview items (where the time goes: a DLA
  // placement, the profiling overhead) are on the first screen only when
  // it has no findings; with findings they are here.
  if (issues.length && isProfileOnly(b)) appendOverview(sec, b);
  sec.appendChild(h("h2", { text: "What is already good" }));
  const pos = b.positives || [];
  if (!pos.length) sec.appendChild(h("p", { class: "muted", text: "No positives recorded." }));
  const pl = h("ul", { class: "positives" });
  for (const p of pos) pl.appendChild(h("li", { class: "positive" }, h("span", { class: "finding-title", text: p.title }), evidenceList(p.evidence)));
  sec.appendChild(pl);
  return sec;
}

function evidenceList(ev: string[] | null): HTMLElement | null {
  if (!ev || !ev.length) return null;
  const ul = h("ul", { class: "evidence" });
  for (const e of ev) ul.appendChild(h("li", { text: e }));
  return ul;
}

function tensorTable(title: string, ts: Tensor[] | null | undefined): HTMLElement | null {
  if (!ts || !ts.length) return null;
  // Two rows per tensor: its whole name across the panel's width (the
  // details are where a name cut elsewhere is read in full), then its
  // dimensions, format and location, so that the narrow side panel shows
  // no clipped column.
  const tb = h("tbody");
  for (const t of ts) {
    tb.appendChild(h("tr", { class: "tname" }, h("td", { class: "mono", text: t.Name, attrs: { colspan: "2" } })));
    tb.appendChild(h("tr", { class: "tfacts" },
      h("td", { class: "mono dims", text: (t.Dimensions || []).join("×"), title: (t.Dimensions || []).join("×") }),
      h("td", null, t["Format/Datatype"] || "", t.Location ? h("div", { class: "muted small", text: `location: ${t.Location}` }) : null)));
  }
  return h("div", null, h("h4", { text: title }), h("table", { class: "tensors stacked" }, h("thead", null, h("tr", null, h("th", { text: "Dimensions" }), h("th", { text: "Format / data type" }))), tb));
}

function kv(dl: HTMLElement, k: string, v: string | number | null | undefined): void {
  if (v === null || v === undefined || v === "") return;
  dl.appendChild(h("dt", { text: k }));
  dl.appendChild(h("dd", { text: String(v) }));
}

/** Fills the details panel for one layer: the name at once, the rest when
 *  its details chunk has loaded (data-loaded then names the layer). */
export function showDetails(el: HTMLElement, m: Model, layer: number, onSelect: (layer: number) => void): void {
  clear(el);
  delete el.dataset.loaded;
  el.dataset.layer = String(layer);
  el.appendChild(h("h3", { id: "details-name", class: "mono", text: m.names[layer] }));
  const body = h("div", null, h("p", { class: "muted", text: "Loading the layer's details…" }));
  el.appendChild(body);
  loadDetails(m.bi, layer).then(({ layer: l, rec: r }) => {
    if (el.dataset.layer !== String(layer)) return; // another layer was selected meanwhile
    clear(body);
    // A profile record without layer info (profile_only): its name only.
    fillDetails(body, m, layer, l || { Name: m.names[layer], LayerType: "", Inputs: [], Outputs: [] } as unknown as Layer, r, onSelect);
    keepTokens(body);
    el.dataset.loaded = String(layer);
  }, (err: Error) => {
    clear(body);
    body.appendChild(h("p", { class: "warn", text: err.message }));
  });
}

function fillDetails(el: HTMLElement, m: Model, layer: number, l: Layer, r: Rec | null, onSelect: (layer: number) => void): void {
  const dl = h("dl", { class: "kv" });
  const guessed = !!r && (r.tags || []).includes("type_guessed_from_name");
  if (m.records) {
    kv(dl, "Profile record", layer);
    if (r && r.layer >= 0) kv(dl, "Layer index", r.layer);
  } else {
    kv(dl, "Layer index", layer);
    kv(dl, "Topological position", m.pos[layer]);
  }
  kv(dl, "Type", m.type[layer] + (l.LayerType && l.LayerType !== m.type[layer] ? ` (raw ${l.LayerType})` : "") + (guessed ? " (guessed from the name: no layer info)" : ""));
  kv(dl, "Precision", m.precision[layer]);
  if (!r && m.predicted && !isNaN(m.avg[layer])) {
    kv(dl, "Predicted time", fmtMs(m.avg[layer], 5) + " (cost model, not measured)");
    kv(dl, "Predicted share", fmtPct(m.pct[layer]));
  }
  if (r && m.timed) {
    kv(dl, "Average", fmtMs(r.avg_ms, 5));
    kv(dl, "Median", r.median_ms === null ? null : fmtMs(r.median_ms, 5));
    kv(dl, "Share", fmtPct(r.percentage));
    kv(dl, "Total time", fmtMs(r.time_ms, 3));
  }
  kv(dl, "Tactic", l.TacticName || (r ? r.tactic : ""));
  kv(dl, "Tactic value", l.TacticValue);
  if (r) {
    kv(dl, "Tactic family", r.tactic_family);
    kv(dl, "Tensor cores", r.tensor_core === null ? "unknown" : r.tensor_core ? "yes" : "no");
    kv(dl, "Myelin graph", r.myelin_graph);
    kv(dl, "Fused ops", r.fused_ops || null);
    kv(dl, "Tags", (r.tags || []).join(", "));
  }
  kv(dl, "Parameter type", l.ParameterType);
  kv(dl, "Origin", l.Origin);
  kv(dl, "Stream", l.StreamId);
  kv(dl, "Subgraph", l._subgraph);
  kv(dl, "Metadata", l.Metadata);
  el.appendChild(dl);
  for (const t of [tensorTable("Inputs", l.Inputs), tensorTable("Outputs", l.Outputs), tensorTable("Constants", l.Constants)]) if (t) el.appendChild(t);
  const neigh = (title: string, start: Int32Array, adj: Int32Array) => {
    const s = start[layer];
    const e = start[layer + 1];
    if (s === e) return;
    const ul = h("ul", { class: "neighbours" });
    for (let k = s; k < Math.min(e, s + 20); k++) {
      const j = adj[k];
      ul.appendChild(h("li", null, h("button", { class: "linkish mono", text: ellipsis(m.names[j], 90), title: m.names[j], on: { click: () => onSelect(j) } })));
    }
    if (e - s > 20) ul.appendChild(h("li", { class: "muted", text: `and ${e - s - 20} more` }));
    el.appendChild(h("h4", { text: `${title} (${e - s})` }));
    el.appendChild(ul);
  };
  neigh("Producers", m.inStart, m.inAdj);
  neigh("Consumers", m.outStart, m.outAdj);
  if (l.Parameters && Object.keys(l.Parameters).length) {
    el.appendChild(h("h4", { text: "Parameters" }));
    el.appendChild(h("pre", { class: "params", text: JSON.stringify(l.Parameters, null, 2) }));
  }
}

/** Every conversion layer (reformat, quantize, dequantize, cast: the
 *  analysis' tags, layerfacts.ConversionKind): what it converts, between
 *  which layers, and what it costs; names link into the graph. */
export function conversionsView(view: BackendView, m: Model, onOpen: (layer: number) => void): HTMLElement {
  const c = view.conversions;
  const box = h("div", { class: "conversions", id: "conversions" });
  if (!c || !c.count) {
    box.appendChild(h("p", { class: "muted", text: m.records ? "No profile record is a reformat, quantize, dequantize or cast by its name (kinds guessed from the names: there is no layer info)."
      : "No reformat, quantize, dequantize or cast layers: tensors flow between layers without format conversions." }));
    return box;
  }
  const shown = (c.list || []).length < c.count ? ` (first ${fmtInt((c.list || []).length)} shown)` : "";
  const link = (l: number) => h("button", { class: "linkish mono", text: ellipsis(m.names[l], 60), title: m.names[l], on: { click: () => onOpen(l) } });
  if (m.records) {
    // Profile records without layer info: the kind is the analysis' (its
    // tags, guessed from the record's name); formats and neighbours are
    // not known.
    box.appendChild(h("p", { class: "muted", text: `${fmtInt(c.count)} conversion record${c.count === 1 ? "" : "s"}` +
      (m.timed ? `, ${fmtMs(c.time_ms)} in total` : "") + shown + ": kinds guessed from the record names (no layer info, so their formats and neighbours are unknown). Click a name to open it in the table." }));
    const rows = h("tbody");
    for (const cv of c.list || []) {
      rows.appendChild(h("tr", { attrs: { "data-layer": String(cv.layer) } },
        h("td", null, link(cv.layer)),
        h("td", { class: "conv-kind", text: cv.kind }),
        m.timed ? h("td", { class: "c-num", text: fmtMs(cv.avg_ms, 4) }) : null));
    }
    box.appendChild(h("div", { class: "table-scroll" }, h("table", { class: "tensors conv-table conv-records" },
      h("thead", null, h("tr", null, h("th", { text: "Profile record" }), h("th", { text: "Conversion (guessed)" }), m.timed ? h("th", { text: "Avg" }) : null)), rows)));
    keepTokens(box);
    return box;
  }
  box.appendChild(h("p", { class: "muted", text: `${fmtInt(c.count)} conversion layer${c.count === 1 ? "" : "s"}` +
    (m.timed ? `, ${fmtMs(c.time_ms)} in total` : "") + shown + ". Click a name to open it in the graph." }));
  const list = (ls: number[] | null) => {
    const td = h("td");
    (ls || []).slice(0, 4).forEach((l, k) => {
      if (k) td.appendChild(document.createTextNode(", "));
      td.appendChild(link(l));
    });
    if ((ls || []).length > 4) td.appendChild(document.createTextNode(` +${(ls || []).length - 4}`));
    if (!ls || !ls.length) td.appendChild(h("span", { class: "muted", text: "(engine input/output)" }));
    return td;
  };
  const tb = h("tbody");
  for (const cv of c.list || []) {
    const tr = h("tr", { attrs: { "data-layer": String(cv.layer) } },
      list(cv.producers),
      h("td", null, link(cv.layer), h("div", { class: "muted", text: cv.kind })),
      list(cv.consumers),
      h("td", null, h("strong", { text: `${cv.from_type} → ${cv.to_type}` }), h("div", { class: "muted small mono conv-labels", text: `${cv.from_label} → ${cv.to_label}`, title: `${cv.from_format} → ${cv.to_format}` })),
      h("td", { class: "mono dims", text: cv.dims }),
      m.timed ? h("td", { class: "c-num", text: fmtMs(cv.avg_ms, 4) }) : null);
    tb.appendChild(tr);
  }
  box.appendChild(h("div", { class: "table-scroll" }, h("table", { class: "tensors conv-table" },
    h("thead", null, h("tr", null, h("th", { text: "Producer" }), h("th", { text: "Conversion" }), h("th", { text: "Consumer" }),
      h("th", { text: "From → to (type, format)" }), h("th", { text: "Shape" }), m.timed ? h("th", { text: "Avg" }) : null)), tb)));
  keepTokens(box);
  return box;
}
