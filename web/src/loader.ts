// Loads the report's data scripts on demand. Script elements (not fetch)
// work from file://, and the CSP allows scripts from the report folder.
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

export async function loadColumns(bi: number): Promise<Columns> {
  const view = window.TRTPERF_VIEW![bi];
  await loadScript(view.columns);
  const c = window.TRTPERF_COLUMNS && window.TRTPERF_COLUMNS[bi];
  if (!c) throw new Error(`${view.columns} holds no layer columns`);
  return c;
}

/** Each layer's Metadata and Origin, for the source-op filter. */
export async function loadSources(bi: number): Promise<string[]> {
  const view = window.TRTPERF_VIEW![bi];
  await loadScript(view.sources);
  const s = window.TRTPERF_SOURCES && window.TRTPERF_SOURCES[bi];
  if (!s) throw new Error(`${view.sources} holds no layer sources`);
  return s;
}

const chunks = new Map<string, DetailChunk>();
window.__trtperfDetails = (bi: number, c: number, data: DetailChunk) => {
  chunks.set(`${bi}-${c}`, data);
};

/** The full layer record and its profile record (null without one). */
export async function loadDetails(bi: number, layer: number): Promise<{ layer: Layer; rec: Rec | null }> {
  const size = window.TRTPERF_VIEW![bi].chunk;
  const c = Math.floor(layer / size);
  const key = `${bi}-${c}`;
  if (!chunks.has(key)) await loadScript(`details/${key}.js`);
  const chunk = chunks.get(key);
  if (!chunk) throw new Error(`details/${key}.js holds no layer details`);
  return { layer: chunk.layers[layer - c * size], rec: chunk.records[layer - c * size] };
}
