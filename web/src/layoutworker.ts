// The layout worker: runs dagre (dagrecore.ts) off the main thread. The
// app creates it from a blob of this file's bundle (build.mjs inlines it as
// __LAYOUT_WORKER__), so it works from file:// as over HTTP; the page's CSP
// allows blob: workers and nothing else.
import { dagreGeometry } from "./dagrecore";

interface Request {
  id: number;
  count: number;
  edges: Int32Array;
  edgeLabel: Int32Array;
}

const scope = self as unknown as { onmessage: (ev: MessageEvent<Request>) => void; postMessage: (msg: unknown, transfer: ArrayBuffer[]) => void };

scope.onmessage = (ev) => {
  const { id, count, edges, edgeLabel } = ev.data;
  const g = dagreGeometry(count, edges, edgeLabel);
  const transfer = [g.x.buffer, g.y.buffer, g.rank.buffer, g.lx.buffer, g.ly.buffer, ...g.paths.map((p) => p.buffer)] as ArrayBuffer[];
  scope.postMessage({ id, g }, transfer);
};
