// Loads the report's data scripts on demand. Script elements (not fetch)
// work from file://, and the CSP allows scripts from the report folder.
// The sources and details scripts hold their JSON packed (gzip, then
// base64, in a string: internal/report/pack.go); unpack inflates it. The
// columns, needed at once, are plain.
import type { Columns, DetailChunk, Layer, Rec } from "./types";

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
      return c;
    });
    columns.set(bi, p);
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
