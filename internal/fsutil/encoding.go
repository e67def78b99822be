package fsutil

import "bytes"

// EncodingHint says, for the first bytes of a file that should be UTF-8
// text or JSON, what it is instead and how to fix it: UTF-16 or UTF-32
// (with or without a byte-order mark; Windows PowerShell's > and
// Out-File write UTF-16 by default). "" when head is not one of those.
// The hint begins with "; " so it can follow a parser's message.
func EncodingHint(head []byte) string {
	enc := ""
	switch {
	case bytes.HasPrefix(head, []byte{0xff, 0xfe, 0, 0}), bytes.HasPrefix(head, []byte{0, 0, 0xfe, 0xff}):
		enc = "UTF-32"
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		enc = "UTF-16 (little-endian)"
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		enc = "UTF-16 (big-endian)"
	case len(head) >= 4 && head[0] != 0 && head[1] == 0 && head[2] != 0 && head[3] == 0:
		enc = "UTF-16 (little-endian)"
	case len(head) >= 4 && head[0] == 0 && head[1] != 0 && head[2] == 0 && head[3] != 0:
		enc = "UTF-16 (big-endian)"
	default:
		return ""
	}
	return "; the file is " + enc + " text (Windows PowerShell's > and Out-File write that): re-save it as UTF-8, e.g. Get-Content F | Set-Content -Encoding utf8 G in PowerShell, or iconv -f " + map[bool]string{true: "UTF-32", false: "UTF-16"}[enc == "UTF-32"] + " -t UTF-8 F > G"
}
