package layerfacts

import "strings"

// SourceOps splits a layer's Metadata into its source ops and strips the
// "[ONNX Layer: ...]" wrapper of each; nil for empty metadata. Ops are
// separated by the visible stand-ins the dump parser writes for
// U+001E/U+001F ("␞", "␟") or by the raw control characters themselves.
func SourceOps(metadata string) []string {
	var exact opSlab
	return exact.sourceOps(metadata)
}

// opSlab hands out the source-op lists of many layers from shared blocks of
// chunk strings (one allocation per block instead of one per layer); the
// zero value allocates each list on its own, at its size.
type opSlab struct {
	buf   []string
	chunk int
}

func (s *opSlab) sourceOps(metadata string) []string {
	if strings.TrimSpace(metadata) == "" {
		return nil
	}
	// One search for the separators, remembered (up to 64) for the split:
	// metadata runs to hundreds of bytes per layer on 10^5 layers.
	raw := hasRawSep(metadata)
	var small [64]int32
	seps := small[:0]
	n := 1
	for i := 0; ; {
		j, w := nextSep(metadata[i:], raw)
		if j < 0 {
			break
		}
		n++
		if len(seps) < cap(small) {
			seps = append(seps, int32(i+j))
		}
		i += j + w
	}
	if cap(s.buf)-len(s.buf) < n {
		s.buf = make([]string, 0, max(n, s.chunk))
	}
	start := len(s.buf)
	ops := s.buf[start:start:cap(s.buf)]
	rest := metadata
	off := 0 // offset of rest in metadata
	for k := 0; ; k++ {
		var i, w int
		if k < len(seps) {
			i = int(seps[k]) - off
			w = sepWidth(rest[i])
		} else if k < n-1 {
			i, w = nextSep(rest, raw)
		} else {
			i = -1
		}
		part := rest
		if i >= 0 {
			part = rest[:i]
		}
		if op := unwrapOp(part); op != "" {
			ops = append(ops, op)
		}
		if i < 0 {
			break
		}
		rest = rest[i+w:]
		off += i + w
	}
	// Clipped: a caller appending to its list cannot reach the next one.
	s.buf = s.buf[:start+len(ops)]
	return ops[:len(ops):len(ops)]
}

// hasRawSep reports whether s holds the raw control-character separators
// (the dump parser makes them visible, so usually not).
func hasRawSep(s string) bool {
	return strings.IndexByte(s, 0x1e) >= 0 || strings.IndexByte(s, 0x1f) >= 0
}

// sepWidth is the width of the separator starting with byte c.
func sepWidth(c byte) int {
	if c == 0xe2 {
		return 3
	}
	return 1
}

// nextSep returns the index and width of the first separator in s, or -1;
// raw says whether s may hold raw control-character separators.
func nextSep(s string, raw bool) (int, int) {
	if !raw {
		// ␞ U+241E and ␟ U+241F are E2 90 9E / E2 90 9F.
		for off := 0; ; {
			j := strings.IndexByte(s[off:], 0xe2)
			if j < 0 {
				return -1, 0
			}
			i := off + j
			if i+2 < len(s) && s[i+1] == 0x90 && (s[i+2] == 0x9e || s[i+2] == 0x9f) {
				return i, 3
			}
			off = i + 1
		}
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 0x1e, 0x1f:
			return i, 1
		case 0xe2:
			if i+2 < len(s) && s[i+1] == 0x90 && (s[i+2] == 0x9e || s[i+2] == 0x9f) {
				return i, 3
			}
		}
	}
	return -1, 0
}

// unwrapOp strips "[ONNX Layer: X]" (or any "[Kind Layer: X]") to X.
func unwrapOp(s string) string {
	const onnx = "[ONNX Layer:"
	if len(s) > len(onnx) && s[:len(onnx)] == onnx && s[len(s)-1] == ']' {
		return strings.TrimSpace(s[len(onnx) : len(s)-1]) // the usual case, without searching
	}
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		if i := strings.Index(s, "Layer:"); i > 0 {
			return strings.TrimSpace(s[i+len("Layer:") : len(s)-1])
		}
	}
	return s
}

// MyelinGraph returns G of a "_myl<G>_<K>" name suffix (TensorRT 10 Myelin
// kernels), or -1.
func MyelinGraph(name string) int {
	// Walk back over K digits, "_", G digits, then require "_myl".
	i := len(name)
	for i > 0 && isDigit(name[i-1]) {
		i--
	}
	if i == len(name) || i == 0 || name[i-1] != '_' {
		return -1
	}
	j := i - 1
	k := j
	for k > 0 && isDigit(name[k-1]) {
		k--
	}
	if k == j || k < 4 || name[k-4:k] != "_myl" {
		return -1
	}
	g := 0
	for _, c := range []byte(name[k:j]) {
		g = g*10 + int(c-'0')
		if g > 1<<30 {
			return -1
		}
	}
	return g
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// fusedOps counts the source ops a layer fuses: the metadata's ops when there
// are any, else the parts of its name (" + " joins, PWN(a, b) arguments, a
// ForeignNode[first...last] range counted as two); at least 1.
func fusedOps(name string, nOps int) int {
	if nOps > 0 {
		return nOps
	}
	n := 1 + strings.Count(name, " + ")
	if strings.Contains(name, "PWN(") {
		n += strings.Count(name, ", ")
	}
	if strings.Contains(name, "ForeignNode[") && strings.Contains(name, "...") {
		n++
	}
	return n
}
