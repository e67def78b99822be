// The report app's types. The analyze-data.json types come from contract.ts,
// which is generated from the contract's JSON Schema (do not edit it; change
// internal/contract/schema/analyze-data.schema.json and run
// `go generate ./internal/contract`). The rest describe the report's own
// script files.

import type { AnalyzeData, Layer, Record as Rec } from "./contract";
import type { Work } from "./roofline";

export type * from "./contract";
export type { Rec };

/** One backend's table and graph columns, as loader.ts expands them from
 *  layers-<b>.js (whose compact form is PackedColumns). */
export interface Columns {
  n: number;
  timed: boolean;
  strings: string[];
  names: string[];
  type: ArrayLike<number>;
  precision: ArrayLike<number>;
  subgraph: ArrayLike<number>;
  avg: ArrayLike<number> | null;
  pct: ArrayLike<number> | null;
  myelin: ArrayLike<number>;
  /** per layer, the id in strings of its storage conversion kind (the
   *  analysis' tags: reformat, quantize, dequantize, cast), -1 for none */
  conv: ArrayLike<number>;
  /** rows that are profile records (profile_only): each record's layer index, -1 unmatched; null when the rows are layers */
  layer: ArrayLike<number> | null;
  /** avg and pct are the cost model's predicted times (layer_only), not measured */
  predicted: boolean;
  /** topological order */
  topo: ArrayLike<number>;
  /** producer, consumer pairs */
  edges: ArrayLike<number>;
  /** per edge, the id in strings of "dims|label" of the tensor it carries
   *  (label: the format as layerfacts.FormatLabel names it, "fp16:chw32"), -1 unknown */
  edge_label: ArrayLike<number>;
  /** layers placed on the roofline (records[].roofline), null when none */
  roofline?: Work | null;
}

/** Binary ints: base64 of zigzag LEB128 varints, one per value. */
export type BinaryInts = string;

/** An int column in layers-<b>.js: one binary int per value, or
 *  value, count, ... runs. */
export type PackedInts = BinaryInts | { runs: BinaryInts };

/** A float column: m, e pairs of binary ints (value = m / 10^-e or
 *  m × 10^e), or base64 of the little-endian doubles; null when untimed. */
export type PackedFloats = { dec: BinaryInts } | { f64: string } | null;

/** layers-<b>.js as written by internal/report/columns.go. */
export interface PackedColumns {
  n: number;
  timed: boolean;
  strings: string[];
  /** plain, or templates: name i is parts[t[i]] joined with the next numbers of v */
  names: string[] | { parts: string[][]; t: PackedInts; v: BinaryInts };
  type: PackedInts;
  precision: PackedInts;
  subgraph: PackedInts;
  avg: PackedFloats;
  pct: PackedFloats;
  myelin: PackedInts;
  conv: PackedInts;
  layer: PackedInts | null;
  predicted: boolean;
  /** null for the identity order */
  topo: number[] | null;
  /** producer minus the previous producer, consumer minus its producer */
  edges: BinaryInts;
  edge_label: PackedInts;
  roofline?: Work | null;
}

/** tactics-<b>.js: each layer's tactic as an id in strings (loaded after
 *  the table and graph are interactive). */
export interface PackedTactics {
  strings: string[];
  tactic: PackedInts;
}

export interface BackendView {
  columns: string;
  tactics: string;
  sources: string;
  /** what the rows are: the layers, or a profile_only backend's records */
  rows: "layers" | "records";
  chunks: number;
  chunk: number;
  slowest: { layer: number; name: string; avg_ms: number; percentage: number; layer_type: string } | null;
  top: TopLayer[] | null;
  /** layers per tactic (kernel) family, most first */
  tactic_mix: { name: string; count: number }[] | null;
  conversions: { count: number; time_ms: number; list: Conversion[] | null };
}

export interface TopLayer { layer: number; name: string; avg_ms: number; percentage: number; layer_type: string; precision: string }

export interface Conversion {
  layer: number;
  name: string;
  kind: string;
  from_format: string;
  to_format: string;
  from_label: string;
  to_label: string;
  from_type: string;
  to_type: string;
  dims: string;
  avg_ms: number;
  timed: boolean;
  producers: number[] | null;
  consumers: number[] | null;
}

/** Fields the diagnosis rework (issue 9) adds to findings and backends;
 *  optional here so the app shows them when present and works without. */
export interface FindingPrice {
  recoverable_ms?: number | null;
  recoverable_low_ms?: number | null;
  recoverable_high_ms?: number | null;
  recoverable_share?: number | null;
  price_basis?: string;
  price_factor?: string;
  action?: string;
}

export interface DiagnosisRef {
  reference_ms?: number | null;
  reference_source?: string;
  layer_sum_ms?: number | null;
}

export interface DetailChunk { layers: Layer[]; records: (Rec | null)[] }

export interface Analysis { present: boolean; html: string; file: string }

declare global {
  interface Window {
    /** data.js: the analysis without its per-layer arrays — layers,
     *  records, graph.edges, graph.topo_order and overview[].layers are
     *  empty (internal/report/view.go summary); the columns scripts and
     *  details chunks hold them. */
    TRTPERF_DATA?: AnalyzeData;
    TRTPERF_ANALYSIS?: Analysis;
    TRTPERF_VIEW?: BackendView[];
    TRTPERF_COLUMNS?: Record<number, PackedColumns>;
    TRTPERF_TACTICS?: Record<number, PackedTactics>;
    /** packed: string[] */
    TRTPERF_SOURCES?: Record<number, string>;
    /** packed: DetailChunk */
    __trtperfDetails?: (bi: number, c: number, data: string) => void;
    __trtperfFirstRender?: number;
    __trtperfReady?: number;
    /** when the first graph layout computed off the main thread was in */
    __trtperfLayoutDone?: number;
    __trtperf?: unknown;
  }
}
