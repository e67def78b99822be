// What the engine ran on and how it was measured: the device / build /
// measurement card of the first screen, and the per-iteration latency plot
// (timing.measured.per_iteration, from trtexec --exportTimes).
import { h, svg, fmtInt, fmtMs } from "./dom";
import type { Backend, Measured, VersionRange } from "./types";

export type Series = NonNullable<Measured["per_iteration"]>;

function num(v: unknown): number | null {
  return typeof v === "number" && isFinite(v) ? v : null;
}

/** A number with about three significant digits ("1935", "19.5", "0.862"). */
export function sig(v: number): string {
  const a = Math.abs(v);
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  return v.toPrecision(3);
}

/** The TensorRT releases a backend's files fit, as summary writes them:
 *  "8.4–10.16 (from file formats)", "8.6 or newer (…)", "7.2 (…)". */
export function trtRangeText(r: VersionRange): string {
  const src = " (from file formats)";
  if (r.max === null || r.max === undefined) return r.min + " or newer" + src;
  return (r.max === r.min ? r.min : `${r.min}–${r.max}`) + src;
}

/** The device, build and measurement facts as a compact definition list;
 *  null when the dumps say nothing of them. */
export function runCard(b: Backend): HTMLElement | null {
  const dl = h("dl", { class: "run-card", id: "run-card", attrs: { "aria-label": "Device, build and measurement" } });
  const row = (key: string, id: string, parts: (string | null | undefined | false)[], title?: string) => {
    const text = parts.filter((p) => p).join(" · ");
    if (!text) return;
    dl.appendChild(h("dt", { text: key }));
    dl.appendChild(h("dd", { id, text, title }));
  };
  const d = b.device;
  if (d) {
    const bw = num(d.memory_bandwidth_gbs);
    row("GPU", "run-gpu", [d.name || "unnamed GPU",
      d.compute_capability ? `compute capability ${d.compute_capability}` : null,
      d.sm_count ? `${d.sm_count} SMs` : null,
      bw !== null ? `${sig(bw)} GB/s` : null], [d.source ? `from ${d.source}` : "", ...(d.notes || [])].filter((x) => x).join("\n") || undefined);
    const p = d.peak_tflops;
    const peaks = ([["FP32", p.fp32], ["TF32", p.tf32], ["FP16", p.fp16], ["INT8", p.int8]] as [string, number | null][])
      .filter((x) => num(x[1]) !== null).map((x) => `${x[0]} ${sig(x[1]!)}`);
    if (peaks.length) row("Peak", "run-peaks", [`${peaks.join(" · ")} TFLOP/s dense`], d.peak_basis === "table" ? "datasheet figures" : "SM count × clock × per-SM rate");
  }
  const bu = b.build;
  const range = b.tensorrt_range;
  const rangeText = range ? trtRangeText(range) : null;
  const rangeWhy = range ? `TensorRT ${rangeText}:\n${(range.evidence || []).join("\n")}` : undefined;
  if (bu) {
    const flags = bu.precision_flags && bu.precision_flags.length ? ` (${bu.precision_flags.join(" ")})` : "";
    row("TensorRT", "run-trt", [bu.tensorrt_version ? bu.tensorrt_version : rangeText || "version unknown",
      bu.precision ? bu.precision + flags : flags.trim() || null,
      bu.inference_shapes || bu.build_shapes],
      [bu.command || (bu.sources || []).join(", "), !bu.tensorrt_version ? rangeWhy : ""].filter((x) => x).join("\n") || undefined);
    if (bu.warnings && bu.warnings.length) row("Warnings", "run-warnings", [bu.warnings.slice(0, 2).join("; ") + (bu.warnings.length > 2 ? ` (+${bu.warnings.length - 2} more)` : "")], bu.warnings.join("\n"));
  } else if (rangeText) {
    row("TensorRT", "run-trt", [rangeText], rangeWhy);
  }
  const m = b.timing ? b.timing.measured : null;
  if (m) {
    const lat = num(m.latency_ms.median);
    const gpu = num(m.gpu_compute_ms.median);
    row("Run", "run-measured", [
      lat !== null && gpu !== null && lat !== gpu ? `latency ${fmtMs(lat)} with transfers` : null,
      num(m.throughput_qps) !== null ? `${fmtInt(Math.round(m.throughput_qps!))} inferences/s` : null,
      m.cuda_graph ? "CUDA graph" : m.cuda_graph === false ? "no CUDA graph" : null,
      m.spin_wait ? "spin wait" : null,
      m.separate_profile_run === null ? null : m.separate_profile_run ? "layers profiled in a separate run" : "layers profiled in the timed run"],
      m.sources.map((s) => `${s.file} (${s.kind.replace(/_/g, " ")})`).join("\n"));
  }
  return dl.childElementCount ? dl : null;
}

/** The median and p99 to draw over the series: of every inference in the
 *  times file (older analyses without them: of the points drawn, unless
 *  they are downsampled). */
export function seriesMarks(s: Series): { median: number | null; p99: number | null } {
  if (num(s.median_ms) !== null) return { median: s.median_ms, p99: num(s.p99_ms) };
  if (s.downsampled || !s.ms.length) return { median: null, p99: null };
  const v = Float64Array.from(s.ms).sort();
  const q = (p: number) => v[Math.max(0, Math.min(v.length - 1, Math.ceil(p * v.length) - 1))];
  return { median: q(0.5), p99: q(0.99) };
}

/** Round tick values covering [lo, hi]. */
export function ticks(lo: number, hi: number, want: number): number[] {
  const span = hi - lo || Math.abs(hi) || 1;
  const raw = span / Math.max(1, want);
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((k) => k * mag).find((s) => s >= raw) || 10 * mag;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return out;
}

/** The per-iteration plot: time per inference against iteration, with the
 *  median and p99 as lines, axis labels and a readout of the point under
 *  the pointer. */
export function latencyView(b: Backend): HTMLElement {
  const box = h("section", { class: "latency-view", id: "latency-plot", attrs: { "aria-label": "Time per inference" } });
  const m = b.timing ? b.timing.measured : null;
  const s = m ? m.per_iteration : null;
  if (!m || !s || !s.ms.length) {
    box.appendChild(h("p", { class: "muted", text: "No per-inference times: export them with trtexec --exportTimes=times_<label>.json beside the dumps." }));
    return box;
  }
  const what = s.of === "gpu_compute" ? "GPU compute time" : "Latency";
  const marks = seriesMarks(s);
  let lo = Infinity, hi = -Infinity;
  for (const v of s.ms) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const pad = (hi - lo) * 0.06 || hi * 0.05 || 1e-3;
  const y0 = Math.max(0, lo - pad), y1 = hi + pad;
  const W = 960, H = 300, L = 62, R = 96, T = 12, B = 44;
  const pw = W - L - R, ph = H - T - B;
  const xMax = Math.max(1, s.iterations - 1);
  const X = (i: number) => L + (pw * i) / xMax;
  const Y = (v: number) => T + ph - (ph * (v - y0)) / (y1 - y0);
  const el = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", class: "latency-svg",
    "aria-label": `${what} of ${fmtInt(s.iterations)} inferences in run order, from ${fmtMs(lo)} to ${fmtMs(hi)}` +
      (marks.median !== null ? `, median ${fmtMs(marks.median)}` : "") + (marks.p99 !== null ? `, p99 ${fmtMs(marks.p99)}` : "") });
  for (const t of ticks(y0, y1, 5)) {
    if (t < y0 || t > y1) continue;
    el.appendChild(svg("line", { x1: L, y1: Y(t), x2: L + pw, y2: Y(t), class: "grid" }));
    el.appendChild(svg("text", { x: L - 6, y: Y(t) + 4, "text-anchor": "end", class: "axis-label" }, sig(t)));
  }
  for (const t of ticks(0, xMax, 8)) {
    el.appendChild(svg("line", { x1: X(t), y1: T + ph, x2: X(t), y2: T + ph + 4, class: "axis" }));
    el.appendChild(svg("text", { x: X(t), y: T + ph + 17, "text-anchor": "middle", class: "axis-label" }, fmtInt(t)));
  }
  el.appendChild(svg("line", { x1: L, y1: T + ph, x2: L + pw, y2: T + ph, class: "axis" }));
  el.appendChild(svg("line", { x1: L, y1: T, x2: L, y2: T + ph, class: "axis" }));
  el.appendChild(svg("text", { x: L + pw / 2, y: H - 6, "text-anchor": "middle", class: "axis-title" }, "inference (run order)"));
  el.appendChild(svg("text", { x: 14, y: T + ph / 2, "text-anchor": "middle", class: "axis-title", transform: `rotate(-90 14 ${T + ph / 2})` }, `${what} (ms)`));
  const pts: string[] = [];
  for (let k = 0; k < s.ms.length; k++) pts.push(`${X(s.index[k]).toFixed(1)},${Y(s.ms[k]).toFixed(1)}`);
  el.appendChild(svg("polyline", { points: pts.join(" "), class: "series" }));
  const mark = (v: number | null, cls: string, label: string) => {
    if (v === null || v < y0 || v > y1) return;
    el.appendChild(svg("line", { x1: L, y1: Y(v), x2: L + pw, y2: Y(v), class: cls, "data-value": v }));
    el.appendChild(svg("text", { x: L + pw + 6, y: Y(v) + 4, class: "mark-label " + cls }, `${label} ${sig(v)}`));
  };
  mark(marks.median, "median", "median");
  mark(marks.p99, "p99", "p99");
  const dot = svg("circle", { r: 4, class: "cursor", cx: -10, cy: -10 });
  el.appendChild(dot);
  const readout = h("p", { class: "readout mono", id: "latency-readout", attrs: { "aria-live": "polite" }, text: "Point at the plot to read one inference." });
  el.addEventListener("mousemove", (ev) => {
    const r = el.getBoundingClientRect();
    const x = ((ev.clientX - r.left) / r.width) * W;
    const it = ((x - L) / pw) * xMax;
    // Nearest point by iteration (index is increasing).
    let a = 0, z = s.index.length - 1;
    while (a < z) {
      const mid = (a + z) >> 1;
      if (s.index[mid] < it) a = mid + 1;
      else z = mid;
    }
    if (a > 0 && Math.abs(s.index[a - 1] - it) < Math.abs(s.index[a] - it)) a--;
    dot.setAttribute("cx", X(s.index[a]).toFixed(1));
    dot.setAttribute("cy", Y(s.ms[a]).toFixed(1));
    readout.textContent = `inference ${fmtInt(s.index[a])}: ${fmtMs(s.ms[a], 4)}`;
  });
  box.appendChild(h("h3", { text: `${what} per inference` }));
  box.appendChild(el);
  box.appendChild(readout);
  const notes = [`${fmtInt(s.iterations)} inferences from ${s.source}`,
    marks.median !== null ? `median ${fmtMs(marks.median, 4)}` : null,
    marks.p99 !== null ? `p99 ${fmtMs(marks.p99, 4)}` : null,
    `min ${fmtMs(lo, 4)}, max ${fmtMs(hi, 4)}`].filter((x) => x).join(" · ");
  box.appendChild(h("p", { class: "muted", id: "latency-plot-note", text: notes + "." }));
  if (s.downsampled) {
    box.appendChild(h("p", { class: "muted", id: "latency-downsampled", text: `Downsampled to ${fmtInt(s.ms.length)} points: the run is cut into equal buckets of consecutive inferences, each drawn as its fastest and its slowest, so spikes stay visible.` }));
  }
  if (s.of === "latency") box.appendChild(h("p", { class: "muted", text: "The times file has no GPU compute column: latency includes host-to-device and device-to-host transfers." }));
  return box;
}
