package dump

import "bytes"

// InspectorText turns the printout of a loop over
// IEngineInspector.get_layer_information(i, LayerInformationFormat.JSON)
// — one JSON object per layer, each after a printed header line such as
// "Layer 3:" — into a JSON list of those objects. ok is false when data
// starts like JSON itself or holds no object with a "Name" key. Only
// objects that open a line count; text between them is ignored.
func InspectorText(data []byte) (list []byte, ok bool) {
	if c, isJSON := firstJSONByte(data); isJSON && (c == '{' || c == '[') {
		return nil, false
	}
	var out bytes.Buffer
	out.WriteByte('[')
	n := 0
	for i := 0; i < len(data); {
		// Find the next line that starts (after blanks) with '{'.
		j := i
		for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
			j++
		}
		if j < len(data) && data[j] == '{' {
			end, complete := objectEnd(data, j)
			if !complete {
				break // a truncated last object: keep what came before
			}
			obj := data[j:end]
			if bytes.Contains(obj, []byte(`"Name"`)) {
				if n > 0 {
					out.WriteByte(',')
				}
				out.Write(obj)
				n++
			}
			i = end
			continue
		}
		// Text between objects is a header line or two ("Layer 3:"); a
		// gap of maxInspectorGap bytes ends the list, so junk after the
		// objects (or a huge file that only starts like inspector text)
		// is not scanned to its end.
		nl := bytes.IndexByte(data[i:min(len(data), i+maxInspectorGap)], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	if n == 0 {
		return nil, false
	}
	out.WriteByte(']')
	return out.Bytes(), true
}

// maxInspectorGap is the longest line of text InspectorText skips
// between layer objects.
const maxInspectorGap = 64 << 10

// maxInspectorObject is the largest layer object InspectorText looks for
// the end of (the biggest real ones are a few MB); a larger one ends the
// list like a truncated one.
const maxInspectorObject = 64 << 20

// objectEnd returns the index after the '}' that closes the object opening
// at start, skipping strings; complete is false when data ends first.
func objectEnd(data []byte, start int) (end int, complete bool) {
	depth := 0
	inStr := false
	for i := start; i < min(len(data), start+maxInspectorObject); i++ {
		c := data[i]
		switch {
		case inStr && c == '\\':
			i++
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
	}
	return len(data), false
}

// looksLikeInspectorText reports whether a head that is not JSON holds a
// line opening a layer object ("LayerType" or "Inputs" near a '{').
func looksLikeInspectorText(head []byte) bool {
	if c, ok := firstJSONByte(head); ok && (c == '{' || c == '[') {
		return false
	}
	for _, line := range bytes.Split(head, []byte{'\n'}) {
		t := bytes.TrimLeft(line, " \t")
		if len(t) > 0 && t[0] == '{' && (bytes.Contains(head, []byte(`"LayerType"`)) || bytes.Contains(head, []byte(`"Inputs"`))) && bytes.Contains(head, []byte(`"Name"`)) {
			return true
		}
	}
	return false
}
