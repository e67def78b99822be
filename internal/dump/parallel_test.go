package dump

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// withParallel runs f with the parallel path forced on (min > 0 bytes) or
// off.
func parseWith(t *testing.T, data []byte, parallel bool) (any, error) {
	t.Helper()
	old := parallelMin
	defer func() { parallelMin = old }()
	parallelMin = 1 << 62
	if parallel {
		parallelMin = 0
	}
	return ParseLayerInfo(data)
}

// TestParallelMatchesSequential checks that the two-goroutine decode gives
// exactly the sequential result, in every layout, including when the
// helper's guessed boundary is wrong or the second half holds an error.
func TestParallelMatchesSequential(t *testing.T) {
	if workers() < 2 {
		t.Skip("SKIP: GOMAXPROCS < 2, the parallel path is not used")
	}
	base := genLayerInfo(3000)
	var indented, compacted bytes.Buffer
	if err := json.Indent(&indented, base, "", "    "); err != nil {
		t.Fatal(err)
	}
	if err := json.Compact(&compacted, base); err != nil {
		t.Fatal(err)
	}
	// A missing Name late in the file: the error must name the absolute
	// layer index whichever goroutine meets it.
	i := bytes.LastIndex(base, []byte(`"Name": "/model/layers.`))
	broken := append(append(append([]byte{}, base[:i]...), `"Nome"`...), base[i+len(`"Name"`):]...)
	early := bytes.Index(base[100:], []byte(`"Name": "/model/layers.`)) + 100
	brokenEarly := append(append(append([]byte{}, base[:early]...), `"Nome"`...), base[early+len(`"Name"`):]...)
	mixed := bytes.Replace(base, []byte(`},{`), []byte(`},"stray",{`), 2900)

	tests := []struct {
		name     string
		data     []byte
		wantJoin bool
	}{
		{"trtexec layout", base, true},
		{"indent=4", indented.Bytes(), true},
		{"compact", compacted.Bytes(), false},
		{"error late", broken, false},
		{"error early", brokenEarly, false},
		{"string element late", mixed, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := parallelJoins.Load()
			seq, seqErr := parseWith(t, tc.data, false)
			par, parErr := parseWith(t, tc.data, true)
			if (seqErr == nil) != (parErr == nil) || seqErr != nil && seqErr.Error() != parErr.Error() {
				t.Fatalf("errors differ:\nsequential %v\nparallel   %v", seqErr, parErr)
			}
			if !reflect.DeepEqual(seq, par) {
				t.Fatal("parallel result differs from sequential")
			}
			joined := parallelJoins.Load() > before
			if tc.wantJoin && !joined {
				t.Error("the helper goroutine's half was not used")
			}
			if seqErr != nil && tc.name == "error late" && !strings.Contains(seqErr.Error(), "layer 2999") {
				t.Errorf("error = %v, want layer 2999", seqErr)
			}
		})
	}
}
