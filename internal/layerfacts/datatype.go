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
func DataType(format string) string {
	typ := Unknown
	eachWord(format, func(w string) bool {
		if len(w) > 16 {
			return true
		}
		var buf [16]byte
		if t, ok := dataTypeByWord[string(lowerInto(buf[:0], w))]; ok {
			typ = t
			return false
		}
		return true
	})
	return typ
}

// dataTypeByWord indexes dataTypeWords (DataType runs for every tensor).
var dataTypeByWord = func() map[string]string {
	m := make(map[string]string, len(dataTypeWords))
	for _, d := range dataTypeWords {
		m[d.word] = d.typ
	}
	return m
}()

// eachWord calls f with every maximal run of ASCII letters and digits in s
// (so "Int8" and "FP16" stay whole and "channel % 8" splits); f returns false
// to stop.
func eachWord(s string, f func(string) bool) {
	start := -1
	for i := 0; i <= len(s); i++ {
		alnum := i < len(s) && isAlnum(s[i])
		if alnum && start < 0 {
			start = i
		} else if !alnum && start >= 0 {
			if !f(s[start:i]) {
				return
			}
			start = -1
		}
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
