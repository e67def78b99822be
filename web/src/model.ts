// A per-backend view model built from the compact columns the Go side
// writes (layers-<b>.js): flat arrays indexed by layer, built in linear
// time, so the table, the graph and filters never touch layer objects.
import type { Backend, Columns } from "./types";
import { typeColors } from "./colors";

export interface Model {
  b: Backend;
  bi: number; // backend index in results
  n: number;
  names: string[];
  type: string[];
  precision: string[];
  /** the type and precision columns as ids in strings */
  typeId: Int32Array;
  precisionId: Int32Array;
  /** "" until setTactics (tactics-<b>.js loads after the table and graph) */
  tactic: string[];
  subgraph: string[]; // "" without _subgraph
  avg: Float64Array; // NaN without timing
  pct: Float64Array; // NaN without timing
  /** position in topological order */
  pos: Int32Array;
  /** layer index at each topological position */
  order: Int32Array;
  timed: boolean;
  /** CSR adjacency over the graph's edges */
  outStart: Int32Array;
  outAdj: Int32Array;
  inStart: Int32Array;
  inAdj: Int32Array;
  /** per outAdj slot: the id in strings of the edge's tensor label ("dims|format"), -1 unknown */
  outLabel: Int32Array;
  strings: string[];
  maxAvg: number;
  myelin: Int32Array; // Myelin graph id per layer, -1 when none
  /** storage conversion kind per layer as an id in strings, -1 when none */
  conv: Int32Array;
  /** the rows are a profile_only backend's records (no graph) */
  records: boolean;
  /** avg and pct are predicted by the cost model, not measured */
  predicted: boolean;
  /** row of a layer index (findings name layers); -1 when no row shows it */
  rowOf: (layer: number) => number;
  /** colour of each layer type (colors.ts), shared by the graph and the hierarchy */
  colors: Map<string, string>;
}

export function buildModel(b: Backend, bi: number, c: Columns): Model {
  const n = c.n;
  const s = c.strings;
  const type = new Array<string>(n);
  const precision = new Array<string>(n);
  const tactic = new Array<string>(n).fill("");
  const subgraph = new Array<string>(n);
  const typeId = ints(c.type), precisionId = ints(c.precision);
  let maxAvg = 0;
  for (let i = 0; i < n; i++) {
    type[i] = s[typeId[i]];
    precision[i] = s[precisionId[i]];
    subgraph[i] = c.subgraph[i] >= 0 ? s[c.subgraph[i]] : "";
  }
  let avg: Float64Array, pct: Float64Array;
  if (c.timed && c.avg && c.pct) {
    avg = floats(c.avg);
    pct = floats(c.pct);
    for (let i = 0; i < n; i++) if (avg[i] > maxAvg) maxAvg = avg[i];
  } else {
    avg = new Float64Array(n).fill(NaN);
    pct = new Float64Array(n).fill(NaN);
  }
  const order = Int32Array.from(c.topo);
  const pos = new Int32Array(n);
  for (let i = 0; i < n; i++) pos[order[i]] = i;

  const e = c.edges;
  const outStart = new Int32Array(n + 1);
  const inStart = new Int32Array(n + 1);
  for (let k = 0; k < e.length; k += 2) {
    outStart[e[k] + 1]++;
    inStart[e[k + 1] + 1]++;
  }
  for (let i = 0; i < n; i++) {
    outStart[i + 1] += outStart[i];
    inStart[i + 1] += inStart[i];
  }
  const outAdj = new Int32Array(outStart[n]);
  const outLabel = new Int32Array(outStart[n]).fill(-1);
  const lab = c.edge_label || [];
  const inAdj = new Int32Array(inStart[n]);
  const oFill = outStart.slice(0, n);
  const iFill = inStart.slice(0, n);
  for (let k = 0; k < e.length; k += 2) {
    const slot = oFill[e[k]]++;
    outAdj[slot] = e[k + 1];
    if (k / 2 < lab.length) outLabel[slot] = lab[k / 2];
    inAdj[iFill[e[k + 1]]++] = e[k];
  }
  let rowOf = (l: number) => (l >= 0 && l < n ? l : -1);
  if (c.layer) {
    const m = new Map<number, number>();
    for (let i = 0; i < n; i++) if (c.layer[i] >= 0 && !m.has(c.layer[i])) m.set(c.layer[i], i);
    rowOf = (l: number) => m.get(l) ?? -1;
  }
  const model: Model = {
    records: !!c.layer, predicted: c.predicted, rowOf, colors: new Map(),
    b, bi, n, names: c.names, type, precision, typeId, precisionId, tactic, subgraph, avg, pct, pos, order,
    timed: c.timed, outStart, outAdj, inStart, inAdj, maxAvg, outLabel, strings: s, myelin: Int32Array.from(c.myelin), conv: Int32Array.from(c.conv),
  };
  model.colors = typeColors(distinctIds(model, model.typeId));
  return model;
}

function ints(v: ArrayLike<number>): Int32Array {
  return v instanceof Int32Array ? v : Int32Array.from(v);
}

function floats(v: ArrayLike<number>): Float64Array {
  return v instanceof Float64Array ? v : Float64Array.from(v);
}

/** Distinct values of a column held as ids in m.strings, most frequent
 *  first, ties by name: distinct() of the strings, counted by id. */
export function distinctIds(m: Model, ids: Int32Array): string[] {
  const count = new Int32Array(m.strings.length);
  for (let i = 0; i < ids.length; i++) count[ids[i]]++;
  const used: number[] = [];
  for (let k = 0; k < count.length; k++) if (count[k] > 0) used.push(k);
  const s = m.strings;
  return used.sort((a, b) => count[b] - count[a] || (s[a] < s[b] ? -1 : s[a] > s[b] ? 1 : 0)).map((k) => s[k]);
}

/** Fills the tactic column once tactics-<b>.js has loaded. */
export function setTactics(m: Model, tactics: string[]): void {
  for (let i = 0; i < m.n && i < tactics.length; i++) m.tactic[i] = tactics[i];
}

/** Distinct values of a per-layer string column, most frequent first. */
export function distinct(values: string[]): string[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) || 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map((e) => e[0]);
}
