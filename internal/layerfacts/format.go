package layerfacts

import (
	"strconv"
	"strings"
)

// FormatLabel names a tensor's "Format/Datatype" string the way trtexec's
// --inputIOFormats spells a format, type:layout ("Channel major FP16
// format where channel % 8 == 0" is fp16:hwc8, "Thirty-two wide channel
// vectorized row major Int8 format" is int8:chw32): the one vocabulary of
// format labels, used by the command line and the report alike.
//
// The layouts are TensorRT's TensorFormat values: chw (kLINEAR), chw2,
// chw4, chw16, chw32 (the "<N> wide channel vectorized" formats; kCDHW32
// prints as chw32 too), hwc (non-vectorized channel-last), hwc<N> (channel
// last padded to a multiple of N: kHWC8, kHWC16, kDHWC8), dla_linear and
// dla_hwc4. A string that names only a data type ("Half", "Float",
// TensorRT 10's style) gives the type alone (fp16); one that names no data
// type is returned as it is ("N/A due to dynamic shapes").
func FormatLabel(format string) string {
	typ := DataType(format)
	if typ == Unknown {
		return format
	}
	t := strings.ToLower(typ)
	if l := formatLayout(strings.ToLower(format)); l != "" {
		return t + ":" + l
	}
	return t
}

// vectorWords are the widths TensorRT spells out in "<N> wide channel
// vectorized" formats.
var vectorWords = map[string]string{"two": "2", "four": "4", "eight": "8", "sixteen": "16", "thirty-two": "32", "sixty-four": "64"}

// formatLayout is the layout part of FormatLabel for a lower-case format
// string, "" when the string names none.
func formatLayout(low string) string {
	switch {
	case strings.Contains(low, "dla planar") || strings.Contains(low, "dla linear"):
		return "dla_linear"
	case strings.Contains(low, "dla image") || strings.Contains(low, "dla hwc4"):
		return "dla_hwc4"
	case strings.Contains(low, "wide channel vectorized"):
		// The whole word before "wide": "thirty-two", never its "two".
		words := strings.Fields(low[:strings.Index(low, "wide channel vectorized")])
		if len(words) > 0 {
			if n, ok := vectorWords[words[len(words)-1]]; ok {
				return "chw" + n
			}
		}
		return "chw?"
	case strings.Contains(low, "channel major") || strings.Contains(low, "channel-last") || strings.Contains(low, "channel last"):
		if n := vectorWidth(low); n > 1 {
			return "hwc" + strconv.FormatInt(n, 10)
		}
		return "hwc"
	case strings.Contains(low, "padded to a multiple of "):
		i := strings.Index(low, "padded to a multiple of ") + len("padded to a multiple of ")
		j := i
		for j < len(low) && low[j] >= '0' && low[j] <= '9' {
			j++
		}
		if j > i {
			return "hwc" + low[i:j]
		}
		return "hwc"
	case strings.Contains(low, "row major"):
		return "chw"
	}
	return ""
}
