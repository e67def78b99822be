// Loads the report's data scripts on demand. Script elements (not fetch)
// work from file://, and the CSP allows scripts from the report folder.
// The sources and details scripts hold their JSON packed (gzip, then
// base64, in a string: internal/report/pack.go); unpack inflates it. The
// columns, needed at once, are plain but compact (internal/report/
// columns.go); expandColumns restores them.
import type { Columns, DetailChunk, Layer, PackedColumns, PackedInts, Rec } from "./types";

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

/** An int column of n values from its plain or run form. */
export function expandInts(v: PackedInts, n: number): Int32Array {
  if (Array.isArray(v)) return Int32Array.from(v);
  const out = new Int32Array(n);
  const r = v.runs;
  let at = 0;
  for (let k = 0; k + 1 < r.length; k += 2) {
    out.fill(r[k], at, at + r[k + 1]);
    at += r[k + 1];
  }
  return out;
}

/** The names from their plain or template form. */
export function expandNames(p: PackedColumns["names"], n: number): string[] {
  if (Array.isArray(p)) return p;
  const t = expandInts(p.t, n);
  const v = p.v;
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
  const d = c.edges;
  const edges = new Int32Array(d.length);
  let prev = 0;
  for (let k = 0; k + 1 < d.length; k += 2) {
    prev += d[k];
    edges[k] = prev;
    edges[k + 1] = prev + d[k + 1];
  }
  return {
    n, timed: c.timed, strings: c.strings, names: expandNames(c.names, n),
    type: expandInts(c.type, n), precision: expandInts(c.precision, n),
    subgraph: expandInts(c.subgraph, n), avg: c.avg, pct: c.pct, myelin: expandInts(c.myelin, n),
    topo, edges, edge_label: expandInts(c.edge_label, d.length / 2), roofline: c.roofline,
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
      const ids = expandInts(t.tactic, n);
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
export async function loadDetails(bi: number, layer: number): Promise<{ layer: Layer; rec: Rec | null }> {
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
