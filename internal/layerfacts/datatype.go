package layerfacts

// Data types DataType and Precision return.
const (
	FP32    = "FP32"
	TF32    = "TF32"
	FP16    = "FP16"
	BF16    = "BF16"
	INT8    = "INT8"
	UINT8   = "UINT8"
	INT4    = "INT4"
	FP8     = "FP8"
	FP4     = "FP4"
	INT32   = "INT32"
	INT64   = "INT64"
	BOOL    = "BOOL"
	Unknown = "UNKNOWN"
)

// dataTypeWords maps whole words of a format string (lower case) to a data
// type. Format strings of every era name exactly one of them: "Row major
// linear FP32", "Channel major FP16 format where channel % 8 == 0",
// "Thirty-two wide channel vectorized row major Int8 format", "Half", "Float",
// "BFloat16", a split-era "<layout> Half", ...
var dataTypeWords = [...]struct{ word, typ string }{
	{"fp32", FP32}, {"float", FP32}, {"float32", FP32}, {"kfloat", FP32},
	{"fp16", FP16}, {"half", FP16}, {"float16", FP16}, {"khalf", FP16},
	{"bf16", BF16}, {"bfloat16", BF16}, {"kbf16", BF16},
	{"int8", INT8}, {"kint8", INT8}, {"uint8", UINT8}, {"kuint8", UINT8},
	{"int4", INT4}, {"kint4", INT4},
	{"fp8", FP8}, {"kfp8", FP8}, {"e4m3", FP8}, {"e5m2", FP8}, {"float8", FP8},
	{"fp4", FP4}, {"kfp4", FP4}, {"e2m1", FP4}, {"nvfp4", FP4},
	{"int32", INT32}, {"kint32", INT32}, {"int64", INT64}, {"kint64", INT64},
	{"bool", BOOL}, {"kbool", BOOL},
	{"tf32", TF32},
}

// DataType returns the data type a tensor format string names, or UNKNOWN
// (for "N/A due to dynamic shapes", an empty string, or an unknown word).
func DataType(format string) string { return typeNames[dataTypeCode(format)] }

// typeNames are the data types by code (codes fit in 4 bits, so a layer's
// tensor types pack into one integer; see tensorTypes).
var typeNames = [...]string{Unknown, FP32, TF32, FP16, BF16, INT8, UINT8, INT4, FP8, FP4, INT32, INT64, BOOL}

const codeUnknown = 0

// dataTypeTable maps the words of dataTypeWords to codes.
var dataTypeTable = func() *wordTable {
	code := map[string]uint32{}
	for i, t := range typeNames {
		code[t] = uint32(i)
	}
	m := make(map[string]uint32, len(dataTypeWords))
	for _, d := range dataTypeWords {
		m[d.word] = code[d.typ]
	}
	return newWordTable(m)
}()

// dataTypeCode returns the code of the first word of format that names a
// data type; words are maximal runs of ASCII letters and digits.
func dataTypeCode(format string) uint8 {
	n := len(format)
	for i := 0; i < n; {
		if charClass[format[i]]&cAlnum == 0 {
			i++
			continue
		}
		start := i
		for i++; i < n && charClass[format[i]]&cAlnum != 0; i++ {
		}
		if l := i - start; l >= 2 && l <= 16 {
			if v, ok := dataTypeTable.get(format[start:i]); ok {
				return uint8(v)
			}
		}
	}
	return codeUnknown
}
