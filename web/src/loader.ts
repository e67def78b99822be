// Loads the report's data scripts on demand. Script elements (not fetch)
// work from file://, and the CSP allows scripts from the report folder.
// The sources and details scripts hold their JSON packed (gzip, then
// base64, in a string: internal/report/pack.go); unpack inflates it. The
// columns, needed at once, are not gzipped but compact, their numbers in
// base64 strings of varints or doubles (internal/report/columns.go);
// expandColumns restores them.
import type { BinaryInts, Columns, DetailChunk, Layer, PackedColumns, PackedFloats, PackedInts, Rec } from "./types";

const scripts = new Map<string, Promise<void>>();

export function loadScript(src: string): Promise<void> {
  let p = scripts.get(src);
  if (!p) {
    p = new Promise<void>((resolve, reject) => {
      const el = document.createElement("script");
      el.src = src;
      el.onload = () => resolve();
      el.onerror = () => reject(new Error(`${src} did not load: the report folder is incomplete; package it again`));
      document.head.appendChild(el);
    });
    scripts.set(src, p);
  }
  return p;
}

/** The JSON value packed in s (base64 of gzip). */
export async function unpack<T>(s: string, what: string): Promise<T> {
  if (typeof DecompressionStream === "undefined") {
    throw new Error(`${what}: this browser cannot inflate the report's compressed layer data (no DecompressionStream); open the report in a current Chrome, Edge, Firefox or Safari`);
  }
  const bin = atob(s);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text()) as T;
}

const columns = new Map<number, Promise<Columns>>();

export function loadColumns(bi: number): Promise<Columns> {
  let p = columns.get(bi);
  if (!p) {
    const view = window.TRTPERF_VIEW![bi];
    p = loadScript(view.columns).then(() => {
      const c = window.TRTPERF_COLUMNS && window.TRTPERF_COLUMNS[bi];
      if (!c) throw new Error(`${view.columns} holds no layer columns`);
      delete window.TRTPERF_COLUMNS![bi];
      return expandColumns(c);
    });
    columns.set(bi, p);
  }
  return p;
}

/** The bytes of a base64 string: natively where the browser has
 *  Uint8Array.fromBase64 (Chrome 140, Firefox 133, Safari 18.2), else
 *  through atob. */
export function base64Bytes(s: string, what: string): Uint8Array {
  try {
    const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
    if (native) return native(s);
    const bin = atob(s);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    throw new Error(`${what} is not base64: the report folder is damaged; package it again`);
  }
}

/** The values of binary ints (base64 of zigzag LEB128 varints), exact up
 *  to 2^53. One pass: this code runs once per load, mostly before V8
 *  optimises it, so every step in the loop counts. */
export function binaryInts(s: BinaryInts, what: string): Float64Array {
  const b = base64Bytes(s, what);
  const len = b.length;
  const out = new Float64Array(len);
  let n = 0;
  for (let at = 0; at < len; ) {
    let c = b[at++];
    let u = c;
    if (c >= 128) {
      u = c & 127;
      let mul = 128;
      do {
        c = b[at++];
        u += (c & 127) * mul;
        mul *= 128;
      } while (c >= 128);
    }
    out[n++] = u % 2 ? -(u + 1) / 2 : u / 2;
  }
  return out.subarray(0, n);
}

/** An int column of n values from its binary or run form. */
export function expandInts(v: PackedInts, n: number, what = "an int column"): Int32Array {
  if (typeof v === "string") {
    const out = Int32Array.from(binaryInts(v, what));
    if (out.length !== n) throw new Error(`${what} holds ${out.length} values, not ${n}: the report folder is damaged; package it again`);
    return out;
  }
  const out = new Int32Array(n);
  const r = binaryInts(v.runs, what);
  let at = 0;
  for (let k = 0; k + 1 < r.length; k += 2) {
    out.fill(r[k], at, at + r[k + 1]);
    at += r[k + 1];
  }
  if (at !== n) throw new Error(`${what} holds ${at} values, not ${n}: the report folder is damaged; package it again`);
  return out;
}

/** Whether typed arrays are little-endian here (every current browser). */
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The exact powers of ten (literals: parsed correctly rounded). */
const POW10 = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
  1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/** A float column of n values (internal/report/columns.go appendFloatColumn):
 *  the same doubles as analyze-data.json's, bit for bit. */
export function expandFloats(v: PackedFloats, n: number, what: string): Float64Array | null {
  if (!v) return null;
  let out: Float64Array;
  if ("dec" in v) {
    const d = binaryInts(v.dec, what);
    out = new Float64Array(d.length >> 1);
    for (let k = 0; k < out.length; k++) {
      const m = d[2 * k], e = d[2 * k + 1];
      // One correctly rounded operation on two exact doubles.
      out[k] = e < 0 ? m / POW10[-e] : m * POW10[e];
    }
  } else {
    const bytes = base64Bytes(v.f64, what);
    if (littleEndian && bytes.byteOffset % 8 === 0 && bytes.byteLength % 8 === 0) {
      out = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 3);
    } else {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      out = new Float64Array(bytes.byteLength >> 3);
      for (let k = 0; k < out.length; k++) out[k] = view.getFloat64(8 * k, true);
    }
  }
  if (out.length !== n) throw new Error(`${what} holds ${out.length} values, not ${n}: the report folder is damaged; package it again`);
  return out;
}

/** The names from their plain or template form. */
export function expandNames(p: PackedColumns["names"], n: number): string[] {
  if (Array.isArray(p)) return p;
  const t = expandInts(p.t, n, "the name templates");
  const v = binaryInts(p.v, "the name numbers");
  const out = new Array<string>(n);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const parts = p.parts[t[i]];
    let s = parts[0];
    for (let k = 1; k < parts.length; k++) s += v[at++] + parts[k];
    out[i] = s;
  }
  return out;
}

/** The columns the model reads, from the compact script. */
export function expandColumns(c: PackedColumns): Columns {
  const n = c.n;
  let topo: ArrayLike<number>;
  if (c.topo) topo = c.topo;
  else {
    const id = new Int32Array(n);
    for (let i = 0; i < n; i++) id[i] = i;
    topo = id;
  }
  const d = binaryInts(c.edges, "the edges");
  const edges = new Int32Array(d.length);
  let prev = 0;
  for (let k = 0; k + 1 < d.length; k += 2) {
    prev += d[k];
    edges[k] = prev;
    edges[k + 1] = prev + d[k + 1];
  }
  return {
    n, timed: c.timed, strings: c.strings, names: expandNames(c.names, n),
    type: expandInts(c.type, n, "the type column"), precision: expandInts(c.precision, n, "the precision column"),
    subgraph: expandInts(c.subgraph, n, "the subgraph column"),
    avg: expandFloats(c.avg, n, "the time column"), pct: expandFloats(c.pct, n, "the share column"),
    myelin: expandInts(c.myelin, n, "the Myelin graph column"), conv: expandInts(c.conv, n, "the conversion column"),
    layer: c.layer ? expandInts(c.layer, n, "the record layer column") : null, predicted: !!c.predicted,
    topo, edges, edge_label: expandInts(c.edge_label, d.length / 2, "the edge labels"), roofline: c.roofline,
  };
}

const tactics = new Map<number, Promise<string[]>>();

/** Each layer's tactic name (tactics-<b>.js) of the n layers. */
export function loadTactics(bi: number, n: number): Promise<string[]> {
  let p = tactics.get(bi);
  if (!p) {
    const view = window.TRTPERF_VIEW![bi];
    p = loadScript(view.tactics).then(() => {
      const t = window.TRTPERF_TACTICS && window.TRTPERF_TACTICS[bi];
      if (!t) throw new Error(`${view.tactics} holds no layer tactics`);
      delete window.TRTPERF_TACTICS![bi];
      const ids = expandInts(t.tactic, n, "the tactic column");
      const out = new Array<string>(ids.length);
      for (let i = 0; i < ids.length; i++) out[i] = t.strings[ids[i]];
      return out;
    });
    tactics.set(bi, p);
  }
  return p;
}

const sources = new Map<number, Promise<string[]>>();

/** Each layer's Metadata and Origin, for the source-op filter. */
export function loadSources(bi: number): Promise<string[]> {
  let p = sources.get(bi);
  if (!p) {
    const view = window.TRTPERF_VIEW![bi];
    p = loadScript(view.sources).then(() => {
      const s = window.TRTPERF_SOURCES && window.TRTPERF_SOURCES[bi];
      if (typeof s !== "string") throw new Error(`${view.sources} holds no layer sources`);
      return unpack<string[]>(s, view.sources);
    });
    sources.set(bi, p);
  }
  return p;
}

const packedChunks = new Map<string, string>();
const chunks = new Map<string, Promise<DetailChunk>>();
window.__trtperfDetails = (bi: number, c: number, data: string) => {
  packedChunks.set(`${bi}-${c}`, data);
};

/** The full layer record and its profile record (null without one). */
export async function loadDetails(bi: number, layer: number): Promise<{ layer: Layer | null; rec: Rec | null }> {
  const size = window.TRTPERF_VIEW![bi].chunk;
  const c = Math.floor(layer / size);
  const key = `${bi}-${c}`;
  let p = chunks.get(key);
  if (!p) {
    const file = `details/${key}.js`;
    p = loadScript(file).then(() => {
      const packed = packedChunks.get(key);
      if (typeof packed !== "string") throw new Error(`${file} holds no layer details`);
      packedChunks.delete(key);
      return unpack<DetailChunk>(packed, file);
    });
    chunks.set(key, p);
  }
  const chunk = await p;
  return { layer: chunk.layers[layer - c * size], rec: chunk.records[layer - c * size] };
}
