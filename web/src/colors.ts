// Layer type colours that stay apart: a palette of 24 colours chosen
// greedily for the largest smallest CIEDE2000 difference between any two
// (13.0; the browser test TestTypeColours holds every pair of the palette,
// and of the colours one report uses, at 12 or more). A hash of the type
// name into 360 hues gave some types near-identical colours.
export const TYPE_PALETTE = [
  "#7aa6d8", "#e2e236", "#e23636", "#d136e2", "#36e2c0", "#eec4ba", "#3659e2", "#e29d36",
  "#e1b3f4", "#36e236", "#b3e7f4", "#db7090", "#d8e7c0", "#e98b63", "#967ece", "#59b6c0",
  "#f4dab3", "#c0cce7", "#a1c059", "#59c078", "#ce7ec6", "#c0ab59", "#dca3ba", "#8c36e2",
];

/** TensorRT's common layer types, each with its own palette slot, so a type
 *  keeps its colour from one report to the next. */
const KNOWN = [
  "CaskConvolution", "Reformat", "NoOp", "PointWiseV2", "Myelin", "kgen", "gemm", "Shuffle",
  "Scale", "CudaDepthwiseConvolution", "CaskPooling", "ElementWise", "Constant", "PluginV2", "MyelinReformat", "CaskGemmConvolution",
  "shape_call", "CudaSoftMax", "Concatenation", "Slice", "Activation", "MatrixMultiply", "Padding", "Gather",
];

/** The palette slot a type asks for: its own for a known type, else one
 *  from a hash of its name. */
function preferred(t: string): number {
  const k = KNOWN.indexOf(t);
  if (k >= 0) return k % TYPE_PALETTE.length;
  let hsh = 2166136261;
  for (let i = 0; i < t.length; i++) {
    hsh ^= t.charCodeAt(i);
    hsh = Math.imul(hsh, 16777619);
  }
  return (hsh >>> 0) % TYPE_PALETTE.length;
}

/** Colours for the types of one report, most frequent first: each type
 *  gets its preferred slot unless a more frequent type has it, then the
 *  next free one; past 24 types, slots repeat. */
export function typeColors(types: string[]): Map<string, string> {
  const used = new Uint8Array(TYPE_PALETTE.length);
  const out = new Map<string, string>();
  let free = TYPE_PALETTE.length;
  for (const t of types) {
    if (out.has(t)) continue;
    let slot = preferred(t);
    if (free > 0) {
      while (used[slot]) slot = (slot + 1) % TYPE_PALETTE.length;
      used[slot] = 1;
      free--;
    }
    out.set(t, TYPE_PALETTE[slot]);
  }
  return out;
}
