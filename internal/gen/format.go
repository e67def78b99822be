package gen

import "strconv"

// dtype is a tensor element type.
type dtype uint8

const (
	dtHalf dtype = iota
	dtFloat
	dtBF16
	dtInt8
	dtFP8
	dtInt32
	dtInt64
	dtBool
)

// dtypeNames gives each type's word in both eras: the Myelin kernel and
// TensorRT 11 "Datatype" word ("Half", "Float", ...), and the word inside
// classic format strings ("FP16", "Int8", ...).
var dtypeNames = [...]struct{ kernel, classic string }{
	dtHalf:  {"Half", "FP16"},
	dtFloat: {"Float", "FP32"},
	dtBF16:  {"BFloat16", "BF16"},
	dtInt8:  {"Int8", "Int8"},
	dtFP8:   {"FP8", "FP8"},
	dtInt32: {"Int32", "Int32"},
	dtInt64: {"Int64", "Int64"},
	dtBool:  {"Bool", "Bool"},
}

// kernelName is the data-type string Myelin kernels use from TensorRT 10 on
// ("Half", "Float", ...), and the TensorRT 11 "Datatype" value.
func (d dtype) kernelName() string { return dtypeNames[d].kernel }

// classic is the type word inside classic format strings ("FP16", "Int8").
func (d dtype) classic() string { return dtypeNames[d].classic }

// layout is a tensor memory layout. Values above 1 are channel-major
// (HWC) with the channel count padded to a multiple of the value.
type layout uint8

const (
	layLinear layout = 0
	layHWC    layout = 1  // "Channel major FP32 format"
	layHWC2   layout = 2  // channel % 2 == 0
	layHWC4   layout = 4  // channel % 4 == 0
	layHWC8   layout = 8  // channel % 8 == 0
	layHWC16  layout = 16 // channel % 16 == 0
	layVec4   layout = 100
	layVec32  layout = 101
	layNA     layout = 200 // "N/A due to dynamic shapes"
)

// classicFormat is the TensorRT 8–10 "Format/Datatype" string of a
// non-Myelin tensor, spelled exactly as trtexec writes it.
func classicFormat(l layout, d dtype) string {
	switch l {
	case layNA:
		return "N/A due to dynamic shapes"
	case layVec4:
		return "Four wide channel vectorized row major " + d.classic() + " format"
	case layVec32:
		return "Thirty-two wide channel vectorized row major " + d.classic() + " format"
	case layHWC:
		return "Channel major " + d.classic() + " format"
	case layLinear:
		switch d {
		case dtFloat:
			return "Row major linear FP32"
		case dtInt32:
			return "Row major linear Int32"
		case dtInt8:
			return "Row major Int8 format"
		}
		return "Row major linear " + d.classic() + " format"
	}
	return "Channel major " + d.classic() + " format where channel % " + strconv.Itoa(int(l)) + " == 0"
}

// splitFormat is the TensorRT 11 "Format" value (layout only; the type is
// in "Datatype").
func splitFormat(l layout) string {
	switch l {
	case layNA:
		return "N/A due to dynamic shapes"
	case layLinear:
		return "Row major linear"
	case layHWC:
		return "Channel major"
	case layVec4:
		return "Four wide channel vectorized row major"
	case layVec32:
		return "Thirty-two wide channel vectorized row major"
	}
	return "Channel major where channel % " + strconv.Itoa(int(l)) + " == 0"
}

// size is the bytes of one element.
func (d dtype) size() float64 {
	switch d {
	case dtFloat:
		return 4
	case dtInt8, dtFP8:
		return 1
	}
	return 2
}
