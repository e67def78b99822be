// dagre's layered layout of a visible graph, as plain geometry: used on the
// main thread or in the layout worker (layoutworker.ts), which runs it
// off the main thread so a report of hundreds of layers is interactive
// before dagre has finished.
import dagre from "@dagrejs/dagre";

export const NODE_W = 190;
export const NODE_H = 30;
export const X_GAP = 22;
export const Y_GAP = 34;
/** Room reserved beside an edge for its tensor label. */
export const LABEL_W = 150;
export const LABEL_H = 14;

/** Where dagre puts the nodes, edge routes and edge labels. */
export interface Geometry {
  x: Float32Array;
  y: Float32Array;
  rank: Int32Array;
  /** per edge: route points x0,y0,x1,y1,... */
  paths: Float32Array[];
  lx: Float32Array;
  ly: Float32Array;
  width: number;
  height: number;
}

/** Lays out count nodes with edges (u, v pairs); edges with a label
 *  (edgeLabel[k] >= 0) get room for it. */
export function dagreGeometry(count: number, edges: Int32Array, edgeLabel: Int32Array): Geometry {
  const g = new dagre.graphlib.Graph({ multigraph: false });
  g.setGraph({ rankdir: "TB", nodesep: X_GAP, ranksep: Y_GAP, edgesep: 12, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  for (let v = 0; v < count; v++) g.setNode(String(v), { width: NODE_W, height: NODE_H });
  const E = edges.length / 2;
  for (let k = 0; k < E; k++) {
    const lab = edgeLabel[k] >= 0;
    g.setEdge(String(edges[2 * k]), String(edges[2 * k + 1]), lab ? { width: LABEL_W, height: LABEL_H, labelpos: "r", labeloffset: 4 } : {});
  }
  dagre.layout(g);
  const x = new Float32Array(count);
  const y = new Float32Array(count);
  const rank = new Int32Array(count);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let v = 0; v < count; v++) {
    const nd = g.node(String(v));
    x[v] = (nd.x ?? 0) - NODE_W / 2;
    y[v] = (nd.y ?? 0) - NODE_H / 2;
    rank[v] = nd.rank ?? 0;
    minX = Math.min(minX, x[v]);
    minY = Math.min(minY, y[v]);
    maxX = Math.max(maxX, x[v] + NODE_W);
    maxY = Math.max(maxY, y[v] + NODE_H);
  }
  const paths: Float32Array[] = new Array(E);
  const lx = new Float32Array(E);
  const ly = new Float32Array(E);
  for (let k = 0; k < E; k++) {
    const ed = g.edge(String(edges[2 * k]), String(edges[2 * k + 1]));
    const pts: { x: number; y: number }[] = (ed && ed.points) || [];
    lx[k] = ed && typeof ed.x === "number" ? ed.x - LABEL_W / 2 : NaN;
    ly[k] = ed && typeof ed.y === "number" ? ed.y : NaN;
    const p = new Float32Array(pts.length * 2);
    pts.forEach((q, i) => {
      p[2 * i] = q.x;
      p[2 * i + 1] = q.y;
      minX = Math.min(minX, q.x);
      maxX = Math.max(maxX, q.x + (edgeLabel[k] >= 0 ? LABEL_W : 0));
    });
    paths[k] = p;
  }
  if (!count) minX = minY = maxX = maxY = 0;
  for (let v = 0; v < count; v++) {
    x[v] -= minX;
    y[v] -= minY;
  }
  for (let k = 0; k < E; k++) {
    lx[k] -= minX;
    ly[k] -= minY;
  }
  for (const p of paths) {
    for (let i = 0; i < p.length; i += 2) {
      p[i] -= minX;
      p[i + 1] -= minY;
    }
  }
  return { x, y, rank, paths, lx, ly, width: maxX - minX, height: maxY - minY };
}

