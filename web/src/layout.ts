// Graph layout: a layered drawing of the DAG over "visible nodes" (a layer,
// or a collapsed group of layers). Up to DAGRE_MAX visible nodes the layout
// is dagre's (Sugiyama: crossing reduction, branches side by side, long
// edges routed around nodes, so skip and residual edges stay visible);
// above that a linear-time longest-path layout keeps 10^5 nodes responsive.
import { dagreGeometry, LABEL_H, LABEL_W, NODE_H, NODE_W, X_GAP, Y_GAP, type Geometry } from "./dagrecore";
import type { Model } from "./model";

/** Largest visible graph laid out by dagre (its ranking and crossing
 *  reduction grow faster than linearly: a 100k-layer engine's grouped view
 *  of ~1,000 dense nodes takes minutes). */
export const DAGRE_MAX = 500;
export const DAGRE_MAX_EDGES = 1200;
/** Engines above this many layers keep the linear layout even when grouped:
 *  their group graphs are dense and dagre makes them slow to open. */
export const DAGRE_MAX_LAYERS = 3000;

export { LABEL_H, LABEL_W, NODE_H, NODE_W, X_GAP, Y_GAP, type Geometry };

export interface Grouping {
  name: string; // how layers were grouped, for the UI
  of: Int32Array; // group per layer, -1 = ungrouped
  names: string[];
  sizes: Int32Array;
}

export interface Layout {
  count: number;
  /** layer index of a node, or -1 for a collapsed group */
  layer: Int32Array;
  /** group index of a collapsed-group node, or -1 */
  group: Int32Array;
  /** visible node of each layer */
  nodeOf: Int32Array;
  x: Float32Array;
  y: Float32Array;
  rank: Int32Array;
  time: Float64Array; // summed avg ms per node (NaN untimed)
  edges: Int32Array; // pairs u, v
  /** per edge: id in m.strings of its tensor label, -1 unknown */
  edgeLabel: Int32Array;
  /** per edge: route points x0,y0,x1,y1,... (dagre), or null for a plain curve */
  paths: Float32Array[] | null;
  /** per edge: where its label starts (dagre), or null */
  lx: Float32Array | null;
  ly: Float32Array | null;
  width: number;
  height: number;
  engine: "dagre" | "longest-path";
  /** the linear layout stands in until dagre's (layoutDagre) arrives */
  dagreWanted?: boolean;
}

declare const __LAYOUT_WORKER__: string;

let worker: Worker | null | undefined;
let nextId = 0;
const waiting = new Map<number, { ok: (g: Geometry) => void; fail: (e: Error) => void }>();

/** dagre's geometry for a layout's nodes and edges, computed in the layout
 *  worker; on the main thread (after a frame) where no worker can start. */
export function layoutDagre(lay: Layout): Promise<Geometry> {
  if (worker === undefined) {
    try {
      const url = URL.createObjectURL(new Blob([__LAYOUT_WORKER__], { type: "text/javascript" }));
      worker = new Worker(url);
      worker.onmessage = (ev: MessageEvent<{ id: number; g: Geometry }>) => {
        const w = waiting.get(ev.data.id);
        waiting.delete(ev.data.id);
        if (w) w.ok(ev.data.g);
      };
      worker.onerror = (ev) => {
        ev.preventDefault();
        for (const w of waiting.values()) w.fail(new Error("layout worker: " + ev.message));
        waiting.clear();
        worker = null;
      };
    } catch {
      worker = null;
    }
  }
  const edges = lay.edges.slice();
  const labels = lay.edgeLabel.slice();
  if (!worker) {
    return new Promise((ok) => setTimeout(() => ok(dagreGeometry(lay.count, edges, labels)), 0));
  }
  const id = nextId++;
  const p = new Promise<Geometry>((ok, fail) => waiting.set(id, { ok, fail }));
  worker.postMessage({ id, count: lay.count, edges, edgeLabel: labels }, [edges.buffer, labels.buffer]);
  // A worker that died falls back to the main thread.
  return p.catch(() => dagreGeometry(lay.count, lay.edges, lay.edgeLabel));
}

/** Lays out the graph with collapsed groups drawn as one node each. With
 *  deferDagre, a graph dagre would lay out gets the linear layout now and
 *  dagreWanted set: the caller runs dagre off the main thread (layoutDagre)
 *  and swaps its geometry in. */
export function layout(m: Model, g: Grouping | null, expanded: Uint8Array | null, deferDagre = false): Layout {
  const n = m.n;
  const nodeOf = new Int32Array(n);
  const groupNode = g ? new Int32Array(g.names.length).fill(-1) : null;
  const layerOfNode = new Int32Array(n);
  const groupOfNode = new Int32Array(n);
  let count = 0;
  // Nodes numbered in order of first appearance in topological order, so
  // every kept edge goes from a lower to a higher node number.
  for (let p = 0; p < n; p++) {
    const i = m.order[p];
    const gi = g ? g.of[i] : -1;
    if (gi < 0 || (expanded && expanded[gi])) {
      layerOfNode[count] = i;
      groupOfNode[count] = -1;
      nodeOf[i] = count++;
    } else {
      if (groupNode![gi] < 0) {
        groupNode![gi] = count;
        layerOfNode[count] = -1;
        groupOfNode[count] = gi;
        count++;
      }
      nodeOf[i] = groupNode![gi];
    }
  }
  const time = new Float64Array(count);
  if (m.timed) {
    for (let i = 0; i < n; i++) time[nodeOf[i]] += m.avg[i] || 0;
  } else {
    time.fill(NaN);
  }

  // Project layer edges onto nodes; drop self-loops and edges that grouping
  // turned backwards (they would make a cycle), and duplicates.
  const seen = new Set<number>();
  const tmp: number[] = [];
  const labs: number[] = [];
  for (let u = 0; u < n; u++) {
    const a = nodeOf[u];
    for (let k = m.outStart[u]; k < m.outStart[u + 1]; k++) {
      const b = nodeOf[m.outAdj[k]];
      if (a >= b) continue;
      const key = a * count + b;
      if (seen.has(key)) continue;
      seen.add(key);
      tmp.push(a, b);
      // A group-to-group edge stands for many tensors: no label.
      labs.push(layerOfNode[a] >= 0 && layerOfNode[b] >= 0 ? m.outLabel[k] : -1);
    }
  }
  const edges = Int32Array.from(tmp);
  const edgeLabel = Int32Array.from(labs);
  const layerOf = layerOfNode.slice(0, count);
  const groupOf = groupOfNode.slice(0, count);
  const wantDagre = n <= DAGRE_MAX_LAYERS && count <= DAGRE_MAX && edges.length / 2 <= DAGRE_MAX_EDGES;
  if (wantDagre && !deferDagre) return dagreLayout(count, layerOf, groupOf, nodeOf, time, edges, edgeLabel);
  const e = edges.length / 2;
  const start = new Int32Array(count + 1);
  const indeg = new Int32Array(count);
  for (let k = 0; k < e; k++) {
    start[edges[2 * k] + 1]++;
    indeg[edges[2 * k + 1]]++;
  }
  for (let v = 0; v < count; v++) start[v + 1] += start[v];
  const adj = new Int32Array(e);
  const fill = start.slice(0, count);
  for (let k = 0; k < e; k++) adj[fill[edges[2 * k]]++] = edges[2 * k + 1];

  // Longest path from the sources, in node order (a topological order).
  const rank = new Int32Array(count);
  for (let a = 0; a < count; a++) {
    const r = rank[a] + 1;
    for (let k = start[a]; k < start[a + 1]; k++) if (rank[adj[k]] < r) rank[adj[k]] = r;
  }
  // Pull sources (constants, weights) down to just above their first
  // consumer, instead of stacking them all on the top row.
  for (let a = count - 1; a >= 0; a--) {
    if (indeg[a] !== 0 || start[a] === start[a + 1]) continue;
    let min = Infinity;
    for (let k = start[a]; k < start[a + 1]; k++) min = Math.min(min, rank[adj[k]]);
    rank[a] = Math.max(0, min - 1);
  }

  // Bucket nodes by rank (stable, in node order).
  let maxRank = 0;
  for (let v = 0; v < count; v++) if (rank[v] > maxRank) maxRank = rank[v];
  const rStart = new Int32Array(maxRank + 2);
  for (let v = 0; v < count; v++) rStart[rank[v] + 1]++;
  for (let r = 0; r <= maxRank; r++) rStart[r + 1] += rStart[r];
  const byRank = new Int32Array(count);
  const rFill = rStart.slice(0, maxRank + 1);
  for (let v = 0; v < count; v++) byRank[rFill[rank[v]]++] = v;

  // One top-down barycentre sweep: a node wants the mean x of its
  // predecessors; nodes of a rank are placed left to right without overlap.
  const x = new Float32Array(count);
  const y = new Float32Array(count);
  const sum = new Float64Array(count);
  const cnt = new Int32Array(count);
  const step = NODE_W + X_GAP;
  let minX = Infinity;
  let maxX = -Infinity;
  for (let r = 0; r <= maxRank; r++) {
    const s = rStart[r];
    const t = rStart[r + 1];
    const want = new Float64Array(t - s);
    const ids = Array.from(byRank.subarray(s, t));
    for (let j = 0; j < ids.length; j++) {
      const v = ids[j];
      want[j] = cnt[v] ? sum[v] / cnt[v] : j * step;
    }
    const idx = ids.map((_, j) => j).sort((p, q) => want[p] - want[q] || ids[p] - ids[q]);
    // Centre the row on its wishes so it spreads both ways.
    const meanWant = idx.reduce((acc, j) => acc + want[j], 0) / Math.max(1, idx.length);
    let last = -Infinity;
    let rowMin = Infinity;
    for (const j of idx) {
      const v = ids[j];
      const px = Math.max(want[j], last + step);
      x[v] = px;
      last = px;
      rowMin = Math.min(rowMin, px);
    }
    const rowMean = idx.reduce((acc, j) => acc + x[ids[j]], 0) / Math.max(1, idx.length);
    const shift = meanWant - rowMean;
    for (const j of idx) {
      const v = ids[j];
      x[v] += shift;
      y[v] = r * (NODE_H + Y_GAP);
      if (x[v] < minX) minX = x[v];
      if (x[v] > maxX) maxX = x[v];
      for (let k = start[v]; k < start[v + 1]; k++) {
        sum[adj[k]] += x[v];
        cnt[adj[k]]++;
      }
    }
    void rowMin;
  }
  if (count) for (let v = 0; v < count; v++) x[v] -= minX;
  return {
    count,
    layer: layerOf,
    group: groupOf,
    nodeOf,
    x,
    y,
    rank,
    time,
    edges,
    edgeLabel,
    paths: null,
    lx: null,
    ly: null,
    width: count ? maxX - minX + NODE_W : 0,
    height: (maxRank + 1) * (NODE_H + Y_GAP),
    engine: "longest-path",
    dagreWanted: wantDagre,
  };
}

function dagreLayout(count: number, layer: Int32Array, group: Int32Array, nodeOf: Int32Array, time: Float64Array, edges: Int32Array, edgeLabel: Int32Array): Layout {
  const g = dagreGeometry(count, edges, edgeLabel);
  return { count, layer, group, nodeOf, time, edges, edgeLabel, ...g, engine: "dagre" };
}

/** Groups by Myelin graph where a layer has one, else by name prefix. */
export function groupLayers(m: Model, mode: string, target: number): Grouping | null {
  if (mode === "none") return null;
  const n = m.n;
  const of = new Int32Array(n).fill(-1);
  const ids = new Map<string, number>();
  const names: string[] = [];
  const put = (i: number, key: string) => {
    let g = ids.get(key);
    if (g === undefined) {
      g = names.length;
      ids.set(key, g);
      names.push(key);
    }
    of[i] = g;
  };
  let label = "position";
  if (mode === "position") {
    const size = Math.max(1, Math.ceil(n / target));
    for (let i = 0; i < n; i++) {
      const p = m.pos[i];
      const lo = p - (p % size);
      put(i, `layers ${lo}–${Math.min(n, lo + size) - 1}`);
    }
  } else {
    const useMyelin = mode === "myelin" || mode === "auto";
    const usePrefix = mode === "prefix" || mode === "auto";
    const depth = usePrefix ? prefixDepth(m, target) : 0;
    if (usePrefix && depth === 0 && mode === "prefix") return groupLayers(m, "position", target);
    const used = new Set<string>();
    const block = Math.max(1, Math.ceil(n / target));
    for (let i = 0; i < n; i++) {
      const sub = m.subgraph[i];
      const pre = sub ? sub + " · " : "";
      if (useMyelin && m.myelin[i] >= 0) {
        put(i, pre + "Myelin graph " + m.myelin[i]);
        used.add("Myelin graph");
      } else if (depth > 0) {
        put(i, pre + prefix(m.names[i], depth));
        used.add("name prefix");
      } else if (mode === "auto") {
        put(i, pre + `layers ${m.pos[i] - (m.pos[i] % block)}…`);
        used.add("position");
      }
    }
    label = [...used].join(" / ") || mode;
  }
  const sizes = new Int32Array(names.length);
  for (let i = 0; i < n; i++) if (of[i] >= 0) sizes[of[i]]++;
  return { name: label, of, names, sizes };
}

const SEP = /[/.:]/;

function prefix(name: string, depth: number): string {
  const parts = name.split(SEP);
  let out = "";
  let used = 0;
  for (const p of parts) {
    if (used === depth) break;
    out += (used === 0 && p === "" ? "" : "/") + p;
    if (p !== "") used++;
  }
  return out || name;
}

/** The deepest name-prefix depth (≤ 6) giving at most target groups that
 *  actually groups something (fewer groups than half the layers). */
function prefixDepth(m: Model, target: number): number {
  let best = 0;
  for (let d = 1; d <= 6; d++) {
    const keys = new Set<string>();
    for (let i = 0; i < m.n && keys.size <= target; i++) keys.add(prefix(m.names[i], d));
    if (keys.size <= target && keys.size > 1 && keys.size < m.n / 2) best = d;
    if (keys.size > target) break;
  }
  return best;
}
