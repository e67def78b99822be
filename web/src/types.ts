// The parts of analyze-data.json (internal/contract/types.go) the app reads.

export interface Evidence { source: string; detail: string; value: string; confidence: string }

export interface Message { level: string; code: string; message: string }

export interface Tensor {
  Name: string;
  Location?: string;
  Dimensions: number[] | null;
  "Format/Datatype": string;
  Extra?: unknown;
}

export interface Layer {
  Name: string;
  LayerType: string;
  Inputs: Tensor[] | null;
  Outputs: Tensor[] | null;
  Constants?: Tensor[] | null;
  ParameterType?: string;
  TacticName?: string;
  TacticValue?: string;
  Origin?: string;
  StreamId?: number;
  Metadata?: string;
  _subgraph?: string;
  OptimizationProfile?: number;
  Parameters?: Record<string, unknown>;
}

export interface Graph {
  is_dag: boolean;
  ambiguous: boolean;
  edge_count: number;
  topo_order: number[] | null;
  edges: [number, number][] | null;
  cycle: string[] | null;
}

/** trtexec --exportTimes summary: the real latency per inference. */
export interface EndToEnd {
  source: string;
  iterations: number;
  mean_ms: number;
  median_ms: number;
  p99_ms: number;
  profile_overhead: number;
}

export interface Timing {
  total_ms: number;
  average_inference_ms: number;
  median_inference_ms: number | null;
  percentage_sum: number;
  zero_time_records: number;
  notes: string[] | null;
  end_to_end?: EndToEnd | null;
}

export interface Rec {
  name: string;
  layer: number;
  layer_type: string;
  raw_layer_type: string;
  precision: string;
  tactic: string;
  tactic_family: string;
  tensor_core: boolean;
  myelin_graph: number | null;
  fused_ops: number;
  time_ms: number;
  avg_ms: number;
  median_ms: number | null;
  percentage: number;
  tags: string[] | null;
}

export interface Breakdown { name: string; count: number; time_ms: number; percentage: number }

export interface Finding {
  id: string;
  title: string;
  score: number;
  confidence: string;
  share: number;
  evidence: string[] | null;
  next_check: string;
  layers: number[] | null;
}

export interface Positive { id: string; title: string; evidence: string[] | null }

export interface Partition { id: string; kind: string; layer_count: number; time_ms: number; percentage: number }

export interface Backend {
  label: string;
  validation: {
    status: string;
    analysis_mode: string;
    messages: Message[] | null;
    source_paths: { layer: string | null; profile: string | null };
    report_available: boolean;
  };
  layer_count: number;
  profile_count: number;
  layers: Layer[] | null;
  graph: Graph;
  count: number | null;
  count_source: string;
  timing: Timing | null;
  model: { name: string; category: string; category_confidence: string; components: string[] | null };
  engines: {
    myelin_graphs: number[] | null;
    subgraphs: string[] | null;
    streams: number[] | null;
    partitions: Partition[] | null;
    inferred_count: number;
    source: string;
  };
  records: Rec[] | null;
  type_breakdown: Breakdown[] | null;
  precision_breakdown: Breakdown[] | null;
  concentration: { layers_50: number; layers_80: number; layers_90: number } | null;
  issues: Finding[] | null;
  positives: Positive[] | null;
}

export interface AnalyzeData {
  schema_version: string;
  tool: { name: string; version: string };
  folder: string | null;
  model_name: string;
  model_name_confidence: string;
  model_components: string[] | null;
  validation: { status: string; backend_count: number; passed_count: number; failed_count: number; warnings: string[] | null };
  results: Backend[] | null;
}

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
