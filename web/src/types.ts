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
  /** What trtexec measured (no per-layer profiling overhead); absent in older files. */
  measured?: Measured | null;
}

/** Statistics in ms; null for what the source does not give. */
export interface Stats {
  min: number | null;
  mean: number | null;
  median: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

export interface MeasuredSource {
  file: string;
  kind: "trex_profile_meta" | "trtexec_log" | "export_times";
  run: number | null;
  samples: number | null;
  latency_median_ms: number | null;
  gpu_compute_median_ms: number | null;
}

export interface Measured {
  source: MeasuredSource;
  sources: MeasuredSource[];
  latency_ms: Stats;
  gpu_compute_ms: Stats;
  enqueue_ms: Stats;
  h2d_ms: Stats | null;
  d2h_ms: Stats | null;
  throughput_qps: number | null;
  samples: number | null;
  cv: number | null;
  cv_of: "gpu_compute" | "latency" | "";
  cuda_graph: boolean | null;
  spin_wait: boolean | null;
  separate_profile_run: boolean | null;
  profile_overhead: number | null;
  profile_overhead_basis: "gpu_compute_median" | "latency_median" | "";
  few_samples: boolean;
  notes: string[] | null;
}

/** The GPU the engine ran on, with derived peaks. */
export interface Device {
  name: string;
  compute_capability: string | null;
  sm_count: number | null;
  clock_ghz: number | null;
  memory_gib: number | null;
  memory_bandwidth_gbs: number | null;
  memory_bandwidth_basis: string;
  peak_tflops: { fp32: number | null; tf32: number | null; fp16: number | null; int8: number | null };
  peak_basis: string;
  source: string;
  notes: string[] | null;
}

/** How the engine was built, from trtexec logs and TREx build metadata. */
export interface Build {
  tensorrt_version: string | null;
  precision: string | null;
  precision_flags: string[] | null;
  command: string | null;
  model_format: string | null;
  batch: string | null;
  build_shapes: string | null;
  inference_shapes: string | null;
  options: { name: string; value: string }[] | null;
  warnings: string[] | null;
  sources: string[] | null;
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
  device?: Device | null;
  build?: Build | null;
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
