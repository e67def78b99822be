// Roofline scatter: each layer the analysis placed on the roofline
// (records[].roofline, carried in the columns script) at its arithmetic
// intensity (FLOP per byte moved) and achieved throughput, on log-log
// axes, under the device's roofline — min(peak, intensity × memory
// bandwidth) — when the device's peaks are known. Drawn on a canvas (LLM engines have tens of
// thousands of GEMMs); click or Enter selects a layer.
import { h, fmtMs, fmtInt, sizeCanvas, cssVar } from "./dom";
import { precisionColor } from "./graph";
import { inkOn, backdrop, DrawnText } from "./contrast";
import type { Model } from "./model";
import type { Backend } from "./types";

/** The columns script's roofline arrays (null when no layer is placed). */
export interface Work {
  layer: number[];
  intensity: number[];
  tflops: number[];
  time_ms: number[];
  pct: number[];
  peak: number[];
  bound: number[];
}

export interface Point { layer: number; x: number; y: number; ms: number; pct: number; peak: string; bound: string }

/** Placed layers, slowest first (the keyboard walks those that matter first). */
export function points(w: Work | null, strings: string[]): Point[] {
  const out: Point[] = [];
  if (!w) return out;
  for (let k = 0; k < w.layer.length; k++) {
    out.push({ layer: w.layer[k], x: w.intensity[k], y: w.tflops[k], ms: w.time_ms[k], pct: w.pct[k], peak: strings[w.peak[k]] || "", bound: strings[w.bound[k]] || "" });
  }
  out.sort((a, b) => b.ms - a.ms || a.layer - b.layer);
  return out;
}

/** Why there is no chart, or "" when there is one. */
export function rooflineAbsent(m: Model, pts: Point[]): string {
  if (!m.timed) return "No roofline: this backend has no per-layer profile, so no achieved throughput.";
  if (!pts.length) return "No roofline: no timed layer has a work estimate (FLOPs and bytes are computed for convolutions, deconvolutions, fully connected and matrix-multiply layers with known shapes).";
  return "";
}

interface Ceiling { name: string; tflops: number }

/** The compute ceilings of the peaks the plotted layers are held to. */
export function ceilings(b: Backend, pts: Point[]): Ceiling[] {
  const p = b.device ? b.device.peak_tflops : null;
  if (!p) return [];
  const used = new Set(pts.map((q) => q.peak).filter((x) => x));
  const out: Ceiling[] = [];
  for (const k of ["int8", "fp16", "tf32", "fp32"] as const) {
    const v = p[k];
    if (used.has(k) && typeof v === "number" && v > 0) out.push({ name: k.toUpperCase(), tflops: v });
  }
  return out.sort((a, b) => b.tflops - a.tflops);
}

function decades(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) out.push(Math.pow(10, e));
  return out;
}

function sup(v: number): string {
  return v >= 1000 || v < 0.01 ? v.toExponential(0).replace("e+", "e") : String(v);
}

export class RooflineView {
  readonly el: HTMLElement;
  onSelect: (layer: number) => void = () => {};
  private canvas: HTMLCanvasElement | null = null;
  private status: HTMLElement;
  private pts: Point[];
  private roofs: Ceiling[];
  private bw: number | null;
  private focus = -1;
  private selected = -1;
  private map: { X: (v: number) => number; Y: (v: number) => number } | null = null;
  /** text drawn by the last draw (for the contrast test) */
  private drawn = new DrawnText();

  constructor(private b: Backend, private m: Model, w: Work | null) {
    this.pts = points(w, m.strings);
    this.roofs = ceilings(b, this.pts);
    const bw = b.device ? b.device.memory_bandwidth_gbs : null;
    this.bw = typeof bw === "number" && bw > 0 ? bw : null;
    this.status = h("p", { class: "tm-status", id: "roofline-status", attrs: { "aria-live": "polite" } });
    this.el = h("section", { class: "roofline", id: "roofline", attrs: { "aria-label": "Roofline" } });
    const why = rooflineAbsent(m, this.pts);
    if (why) {
      this.el.appendChild(h("p", { class: "muted", id: "roofline-absent", text: why }));
      return;
    }
    this.canvas = h("canvas", { class: "tm-canvas", id: "roofline-canvas", attrs: { tabindex: "0", role: "img" } });
    this.el.appendChild(h("h3", { text: "Roofline: achieved throughput against arithmetic intensity" }));
    this.el.appendChild(this.canvas);
    this.el.appendChild(this.status);
    this.el.appendChild(h("p", { class: "muted", id: "roofline-note", text: this.note() }));
    this.canvas.addEventListener("click", (ev) => this.click(ev));
    this.canvas.addEventListener("keydown", (ev) => this.key(ev));
    this.canvas.addEventListener("blur", () => this.draw());
  }

  private note(): string {
    const dev = this.b.device;
    const r = this.b.roofline;
    const basis = r && r.time_basis === "avg_ms_x_profile_scale"
      ? `the profiled average scaled by ${r.time_scale.toFixed(3)} to the measured GPU compute time (profiling overhead removed)`
      : "the profiled average time (includes per-layer profiling overhead)";
    const parts = [`${fmtInt(this.pts.length)} of ${fmtInt(this.m.n)} layers have a work estimate; achieved TFLOP/s = FLOPs ÷ ${basis}.`];
    if (r) parts.push(`Together they run at ${r.achieved_tflops.toPrecision(3)} TFLOP/s; ${fmtInt(r.compute_bound)} compute-bound, ${fmtInt(r.memory_bound)} memory-bound.`);
    if (dev && (this.roofs.length || this.bw)) {
      parts.push(`Roofline of ${dev.name}: ${this.bw ? `memory ${Math.round(this.bw)} GB/s` : "memory bandwidth unknown"}${this.roofs.length ? ", dense peaks " + this.roofs.map((c) => `${c.name} ${c.tflops.toFixed(c.tflops < 100 ? 1 : 0)}`).join(", ") + " TFLOP/s" : ""}.`);
    } else parts.push("No roofline drawn: the device's peak throughput and bandwidth are not in the files (add trtexec's log or TREx device metadata).");
    parts.push("Keys: ← → step through layers slowest first, Enter opens one.");
    return parts.join(" ");
  }

  shown(): void {
    this.draw();
  }

  select(layer: number): void {
    this.selected = layer;
    if (this.canvas && this.map) this.draw();
  }

  /** For tests: how many points, ceilings and where the first point is. */
  report(): { points: number; ceilings: string[]; first: { layer: number; x: number; y: number } | null; text: ReturnType<DrawnText["report"]> } {
    const p = this.pts[0];
    return { points: this.pts.length, ceilings: this.roofs.map((c) => c.name),
      first: p && this.map ? { layer: p.layer, x: this.map.X(p.x), y: this.map.Y(p.y) } : null, text: this.drawn.report() };
  }

  private draw(): void {
    const cv = this.canvas;
    if (!cv) return;
    const W = Math.max(320, cv.parentElement!.clientWidth || 800);
    const H = Math.max(280, Math.min(560, Math.round(window.innerHeight * 0.58)));
    const g = sizeCanvas(cv, W, H);
    const ink = cssVar("--ink", "#1d2430");
    const muted = cssVar("--muted", "#555f6d");
    const line2 = cssVar("--line2", "#eef1f5");
    const bad = cssVar("--bad", "#a93226");
    const accent = cssVar("--accent", "#245f9e");
    g.clearRect(0, 0, W, H);
    const paper = backdrop(cv);
    this.drawn.clear();
    const L = 64, R = 16, T = 14, B = 46;
    let x0 = Infinity, x1 = 0, y0 = Infinity, y1 = 0;
    for (const p of this.pts) {
      x0 = Math.min(x0, p.x);
      x1 = Math.max(x1, p.x);
      y0 = Math.min(y0, p.y);
      y1 = Math.max(y1, p.y);
    }
    const top = this.roofs.length ? this.roofs[0].tflops : 0;
    y1 = Math.max(y1, top);
    if (this.bw && top) x1 = Math.max(x1, (top * 1000) / this.bw * 2); // show the ridge point
    const lx0 = Math.log10(x0) - 0.15, lx1 = Math.log10(x1) + 0.15;
    const ly0 = Math.log10(y0) - 0.2, ly1 = Math.log10(y1) + 0.15;
    const X = (v: number) => L + ((Math.log10(v) - lx0) / (lx1 - lx0)) * (W - L - R);
    const Y = (v: number) => T + (1 - (Math.log10(v) - ly0) / (ly1 - ly0)) * (H - T - B);
    this.map = { X, Y };
    g.font = "12px system-ui, sans-serif";
    g.lineWidth = 1;
    for (const v of decades(Math.pow(10, lx0), Math.pow(10, lx1))) {
      const x = X(v);
      if (x < L - 0.5 || x > W - R + 0.5) continue;
      g.strokeStyle = line2;
      g.beginPath();
      g.moveTo(x, T);
      g.lineTo(x, H - B);
      g.stroke();
      g.fillStyle = muted;
      g.textAlign = "center";
      g.fillText(sup(v), x, H - B + 16);
      this.drawn.add("axis tick", muted, paper);
    }
    for (const v of decades(Math.pow(10, ly0), Math.pow(10, ly1))) {
      const y = Y(v);
      if (y < T - 0.5 || y > H - B + 0.5) continue;
      g.strokeStyle = line2;
      g.beginPath();
      g.moveTo(L, y);
      g.lineTo(W - R, y);
      g.stroke();
      g.fillStyle = muted;
      g.textAlign = "right";
      g.fillText(sup(v), L - 6, y + 4);
      this.drawn.add("axis tick", muted, paper);
    }
    g.strokeStyle = muted;
    g.strokeRect(L, T, W - L - R, H - T - B);
    g.fillStyle = ink;
    g.textAlign = "center";
    g.font = "13px system-ui, sans-serif";
    g.fillText("arithmetic intensity (FLOP per byte moved, log)", L + (W - L - R) / 2, H - 8);
    g.save();
    g.translate(16, T + (H - T - B) / 2);
    g.rotate(-Math.PI / 2);
    g.fillText("achieved TFLOP/s (log)", 0, 0);
    this.drawn.add("axis title", ink, paper);
    g.restore();
    // Roofs: the memory slope up to each compute ceiling.
    g.save();
    g.beginPath();
    g.rect(L, T, W - L - R, H - T - B);
    g.clip();
    const xl = Math.pow(10, lx0), xr = Math.pow(10, lx1);
    for (const c of this.roofs) {
      g.strokeStyle = bad;
      g.lineWidth = c === this.roofs[0] ? 2 : 1.2;
      g.setLineDash(c === this.roofs[0] ? [] : [6, 4]);
      g.beginPath();
      if (this.bw) {
        const ridge = (c.tflops * 1000) / this.bw;
        g.moveTo(X(xl), Y((xl * this.bw) / 1000));
        g.lineTo(X(ridge), Y(c.tflops));
      } else g.moveTo(X(xl), Y(c.tflops));
      g.lineTo(X(xr), Y(c.tflops));
      g.stroke();
      g.setLineDash([]);
      g.fillStyle = bad;
      g.textAlign = "right";
      g.font = "600 12px system-ui, sans-serif";
      g.fillText(`${c.name} peak ${c.tflops.toFixed(c.tflops < 100 ? 1 : 0)}`, W - R - 4, Y(c.tflops) - 4);
      this.drawn.add("ceiling label", bad, paper);
    }
    if (this.bw && !this.roofs.length) {
      g.strokeStyle = bad;
      g.beginPath();
      g.moveTo(X(xl), Y((xl * this.bw) / 1000));
      g.lineTo(X(xr), Y((xr * this.bw) / 1000));
      g.stroke();
    }
    g.restore();
    // Points, largest time drawn last (on top), radius by time share.
    const maxMs = this.pts.length ? this.pts[0].ms : 1;
    g.lineWidth = 1;
    for (let k = this.pts.length - 1; k >= 0; k--) {
      const p = this.pts[k];
      const col = precisionColor(this.m.precision[p.layer]);
      g.fillStyle = col;
      g.strokeStyle = inkOn(col) === "#000000" ? "rgba(0,0,0,.55)" : "rgba(255,255,255,.7)";
      g.beginPath();
      g.arc(X(p.x), Y(p.y), 2.5 + 5 * Math.sqrt(p.ms / maxMs), 0, 2 * Math.PI);
      g.fill();
      g.stroke();
    }
    const ring = (k: number, colour: string) => {
      const p = this.pts[k];
      if (!p) return;
      g.strokeStyle = colour;
      g.lineWidth = 3;
      g.beginPath();
      g.arc(X(p.x), Y(p.y), 11, 0, 2 * Math.PI);
      g.stroke();
    };
    if (this.selected >= 0) ring(this.pts.findIndex((p) => p.layer === this.selected), bad);
    if (this.focus >= 0 && document.activeElement === cv) ring(this.focus, accent);
    // Legend: precisions present.
    const precs = [...new Set(this.pts.map((p) => this.m.precision[p.layer]))];
    let lx = L + 8;
    g.font = "12px system-ui, sans-serif";
    g.textAlign = "left";
    for (const pr of precs) {
      g.fillStyle = precisionColor(pr);
      g.beginPath();
      g.arc(lx + 5, T + 12, 5, 0, 2 * Math.PI);
      g.fill();
      g.fillStyle = ink;
      g.fillText(pr, lx + 14, T + 16);
      this.drawn.add("legend", ink, paper);
      lx += 24 + g.measureText(pr).width;
    }
    cv.setAttribute("aria-label", `Roofline scatter of ${this.pts.length} layers; slowest ${this.describe(this.pts[0])}`);
  }

  private describe(p: Point): string {
    const name = this.m.names[p.layer];
    return `${name}: ${p.y.toPrecision(3)} TFLOP/s at ${p.x.toPrecision(3)} FLOP/byte, ${fmtMs(p.ms, 4)}` +
      (p.pct >= 0 ? `, ${p.pct.toFixed(1)}% of attainable` : "") + (p.bound ? ` (${p.bound}-bound)` : "");
  }

  private nearest(ev: MouseEvent): number {
    if (!this.canvas || !this.map) return -1;
    const r = this.canvas.getBoundingClientRect();
    const x = ev.clientX - r.left, y = ev.clientY - r.top;
    let best = -1, bd = 12 * 12;
    this.pts.forEach((p, k) => {
      const d = (this.map!.X(p.x) - x) ** 2 + (this.map!.Y(p.y) - y) ** 2;
      if (d < bd) [best, bd] = [k, d];
    });
    return best;
  }

  private click(ev: MouseEvent): void {
    const k = this.nearest(ev);
    if (k < 0) return;
    this.focus = k;
    this.selected = this.pts[k].layer;
    this.status.textContent = this.describe(this.pts[k]);
    this.onSelect(this.pts[k].layer);
    this.draw();
  }

  private key(ev: KeyboardEvent): void {
    const n = this.pts.length;
    if (!n) return;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") this.focus = (this.focus + 1) % n;
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") this.focus = (this.focus - 1 + n) % n;
    else if (ev.key === "Home") this.focus = 0;
    else if (ev.key === "End") this.focus = n - 1;
    else if ((ev.key === "Enter" || ev.key === " ") && this.focus >= 0) {
      this.selected = this.pts[this.focus].layer;
      this.onSelect(this.selected);
    } else return;
    ev.preventDefault();
    if (this.focus < 0) this.focus = 0;
    this.status.textContent = this.describe(this.pts[this.focus]);
    this.draw();
  }
}
