package gen

// tensor is one layer input, output or constant.
type tensor struct {
	name string
	dims []int64
	dt   dtype
	lay  layout
	// shared tensors are read by later Myelin regions too (rotary tables,
	// the attention mask), so a trt8 region that consumes them still
	// exports them.
	shared bool
}

// kv is one per-type layer parameter; v is already JSON.
type kv struct{ k, v string }

// layer is one layer as a builder describes it; the emitter renders it in
// the requested era.
type layer struct {
	name   string
	typ    string
	in     []tensor
	out    []tensor
	consts []tensor // weights listed as "Constants"
	params []kv     // ParameterType first when present
	tactic string   // TacticName; "" leaves the key out
	tvalue string   // TacticValue; "" leaves the key out
	origin string   // Origin ("REFORMAT", "QDQ"); "" leaves the key out
	meta   []string // source ONNX ops, rendered "[ONNX Layer: op]"
	cost   float64  // nominal milliseconds; 0 = the layer costs nothing (NoOp, elided reformat)
	stream int
	mylSfx bool // name is a base; the emitter appends _myl<G>_<K> when it keeps the layer
	myelin bool // a Myelin kernel: dtype-only formats from trt10 on, grouped into a ForeignNode in trt8
}

// ioTensor is a declared engine input or output.
type ioTensor struct {
	t     tensor
	input bool
}
