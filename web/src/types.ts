// The report app's types. The analyze-data.json types come from contract.ts,
// which is generated from the contract's JSON Schema (do not edit it; change
// internal/contract/schema/analyze-data.schema.json and run
// `go generate ./internal/contract`). The rest describe the report's own
// script files.

import type { AnalyzeData, Layer, Record as Rec } from "./contract";

export type * from "./contract";
export type { Rec };

/** layers-<b>.js: one backend's table and graph columns. */
export interface Columns {
  n: number;
  timed: boolean;
  strings: string[];
  names: string[];
  type: number[];
  precision: number[];
  tactic: number[];
  subgraph: number[];
  avg: number[] | null;
  pct: number[] | null;
  myelin: number[];
  topo: number[];
  edges: number[];
}

export interface BackendView {
  columns: string;
  sources: string;
  chunks: number;
  chunk: number;
  slowest: { layer: number; name: string; avg_ms: number; percentage: number; layer_type: string } | null;
}

export interface DetailChunk { layers: Layer[]; records: (Rec | null)[] }

export interface Analysis { present: boolean; html: string; file: string }

declare global {
  interface Window {
    TRTPERF_DATA?: AnalyzeData;
    TRTPERF_ANALYSIS?: Analysis;
    TRTPERF_VIEW?: BackendView[];
    TRTPERF_COLUMNS?: Record<number, Columns>;
    TRTPERF_SOURCES?: Record<number, string[]>;
    __trtperfDetails?: (bi: number, c: number, data: DetailChunk) => void;
    __trtperfFirstRender?: number;
    __trtperfReady?: number;
    __trtperf?: unknown;
  }
}
