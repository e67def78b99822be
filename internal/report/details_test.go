package report

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/report/reporttest"
)

// scriptValue reads the JSON argument of a details script or the value
// assigned by a columns/sources script, checking that the script-unsafe
// characters are escaped.
func scriptValue(t *testing.T, file, prefix, suffix string) any {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	if !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) {
		t.Fatalf("%s: got %.60q...%q, want prefix %q and suffix %q", file, s, s[max(0, len(s)-10):], prefix, suffix)
	}
	body := s[len(prefix) : len(s)-len(suffix)]
	if strings.ContainsAny(body, "<>&\u2028\u2029") {
		t.Fatalf("%s: unescaped character in the script", file)
	}
	if strings.HasPrefix(body, `"`) {
		body = string(unpack(t, file, body))
	}
	var v any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return v
}

// unpack reads a packed string literal (see writePacked): quotes around
// standard base64 of a gzip stream.
func unpack(t *testing.T, file, lit string) []byte {
	t.Helper()
	if len(lit) < 2 || lit[len(lit)-1] != '"' || strings.Trim(lit[1:len(lit)-1], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") != "" {
		t.Fatalf("%s: the packed value is not a base64 string literal", file)
	}
	gz, err := base64.StdEncoding.DecodeString(lit[1 : len(lit)-1])
	if err != nil {
		t.Fatalf("%s: base64: %v", file, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatalf("%s: gzip: %v", file, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: gzip: %v", file, err)
	}
	return raw
}

// generic is v as encoding/json sees it, for comparing values, not bytes.
func generic(t *testing.T, v any) any {
	t.Helper()
	raw, err := jsonv2.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var g any
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestDetailsAndSourcesFromIndex: the detail chunks cut out of the encoded
// analysis and the streamed sources hold the same values as encoding the
// layers and records afresh (what the app reads), including for hostile
// strings, layers without a record and a chunk boundary.
func TestDetailsAndSourcesFromIndex(t *testing.T) {
	hostile, _ := reporttest.Hostile()
	withOrigin := reporttest.Synthetic(reporttest.Options{Layers: 50})
	for i := range withOrigin.Results[0].Layers {
		l := &withOrigin.Results[0].Layers[i]
		switch i % 3 {
		case 0:
			l.Origin = "aten::matmul <x> & \"y\" \u2028"
		case 1:
			l.Metadata, l.Origin = "", "Conv"
		}
	}
	for _, tc := range []struct {
		name string
		d    *contract.AnalyzeData
	}{
		{"synthetic", reporttest.Synthetic(reporttest.Options{Layers: DetailChunk + 37, WithLayerOnly: true})},
		{"hostile", hostile},
		{"origin", withOrigin},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, indexed := range []bool{true, false} {
				var buf bytes.Buffer
				idx, err := contract.EncodeIndexed(&buf, tc.d)
				if err != nil {
					t.Fatal(err)
				}
				if !indexed {
					idx = nil // BuildIndexed finds the layers itself
				}
				dir := t.TempDir()
				if err := (Builder{}).BuildIndexed(dir, tc.d, buf.Bytes(), idx, nil); err != nil {
					t.Fatal(err)
				}
				for bi := range tc.d.Results {
					checkBackendScripts(t, dir, bi, &tc.d.Results[bi])
				}
			}
		})
	}
}

func checkBackendScripts(t *testing.T, dir string, bi int, b *contract.Backend) {
	t.Helper()
	rec := make([]*contract.Record, len(b.Layers))
	for i := range b.Records {
		if l := b.Records[i].Layer; l >= 0 && l < len(rec) {
			rec[l] = &b.Records[i]
		}
	}
	for start := 0; start < len(b.Layers); start += DetailChunk {
		end := min(start+DetailChunk, len(b.Layers))
		c := start / DetailChunk
		want := generic(t, struct {
			Layers  []contract.Layer   `json:"layers"`
			Records []*contract.Record `json:"records"`
		}{b.Layers[start:end], rec[start:end]})
		got := scriptValue(t, filepath.Join(dir, DirDetails, fmt.Sprintf("%d-%d.js", bi, c)), fmt.Sprintf("window.__trtperfDetails(%d, %d, ", bi, c), ");\n")
		if !reflect.DeepEqual(got, want) {
			t.Errorf("backend %d details chunk %d differs from the layers and records", bi, c)
		}
	}
	sources := make([]string, len(b.Layers))
	for i, l := range b.Layers {
		sources[i] = l.Metadata
		if l.Origin != "" {
			sources[i] += " " + l.Origin
		}
	}
	got := scriptValue(t, filepath.Join(dir, fmt.Sprintf("sources-%d.js", bi)), fmt.Sprintf("window.TRTPERF_SOURCES = window.TRTPERF_SOURCES || {};\nwindow.TRTPERF_SOURCES[%d] = ", bi), ";\n")
	if !reflect.DeepEqual(got, generic(t, sources)) {
		t.Errorf("backend %d sources differ from Metadata + Origin", bi)
	}
}

func TestBuildRejectsWrongIndex(t *testing.T) {
	d := reporttest.Synthetic(reporttest.Options{Layers: 10})
	var buf bytes.Buffer
	idx, err := contract.EncodeIndexed(&buf, d)
	if err != nil {
		t.Fatal(err)
	}
	short := &contract.Index{Results: []contract.BackendIndex{{Layers: idx.Results[0].Layers[1:], Records: idx.Results[0].Records}}}
	shifted := &contract.Index{Results: []contract.BackendIndex{{Layers: append([]contract.Span(nil), idx.Results[0].Layers...), Records: idx.Results[0].Records}}}
	shifted.Results[0].Layers[3].Start++
	for name, bad := range map[string]*contract.Index{"missing backend": {}, "missing layer": short, "shifted span": shifted} {
		if err := (Builder{}).BuildIndexed(t.TempDir(), d, buf.Bytes(), bad, nil); err == nil || !strings.Contains(err.Error(), "index") {
			t.Errorf("%s: error %v, want one about the index", name, err)
		}
	}
}

func TestRunJobsReportsFirstFailureInOrder(t *testing.T) {
	ran := make([]bool, 5)
	jobs := make([]func() error, 5)
	for i := range jobs {
		jobs[i] = func() error {
			ran[i] = true
			if i == 1 || i == 2 {
				return fmt.Errorf("job %d", i)
			}
			return nil
		}
	}
	if err := runJobs(jobs, 1); err == nil || err.Error() != "job 1" {
		t.Errorf("runJobs = %v, want job 1", err)
	}
	if ran[2] || ran[3] {
		t.Errorf("jobs after a failure started: %v", ran)
	}
	if err := runJobs(jobs[3:], 4); err != nil {
		t.Errorf("runJobs of good jobs = %v", err)
	}
}

// TestWriteSpans: runs of adjacent elements are written as one slice, and
// the bytes equal writing each element (or null) after a comma.
func TestWriteSpans(t *testing.T) {
	enc := []byte(`[{"a":1},{"b":2},{"c":3}, {"d":4},{"e":5}]`)
	at := func(sub string) contract.Span {
		i := bytes.Index(enc, []byte(sub))
		return contract.Span{Start: int64(i), End: int64(i + len(sub))}
	}
	a, b, c, d, e := at(`{"a":1}`), at(`{"b":2}`), at(`{"c":3}`), at(`{"d":4}`), at(`{"e":5}`)
	for _, tc := range []struct {
		elems  []contract.Span // Start -1: null
		writes int
	}{
		{[]contract.Span{a, b, c}, 1},
		{[]contract.Span{a, b, c, d, e}, 3}, // a-c, ",", d-e (a space before d breaks the run)
		{[]contract.Span{b, {Start: -1}, c}, 5},
		{[]contract.Span{c, b, a}, 5},
		{[]contract.Span{{Start: -1}}, 1},
		{nil, 0},
	} {
		var want bytes.Buffer
		for k, s := range tc.elems {
			if k > 0 {
				want.WriteByte(',')
			}
			if s.Start < 0 {
				want.WriteString("null")
			} else {
				want.Write(enc[s.Start:s.End])
			}
		}
		var got countingBuffer
		writeSpans(&got, enc, len(tc.elems), func(k int) (contract.Span, bool) { return tc.elems[k], tc.elems[k].Start >= 0 })
		if got.String() != want.String() {
			t.Errorf("%v: got %s, want %s", tc.elems, got.String(), want.String())
		}
		if got.writes != tc.writes {
			t.Errorf("%v: %d writes, want %d", tc.elems, got.writes, tc.writes)
		}
	}
}

type countingBuffer struct {
	bytes.Buffer
	writes int
}

func (c *countingBuffer) Write(p []byte) (int, error) { c.writes++; return c.Buffer.Write(p) }

func (c *countingBuffer) WriteString(s string) (int, error) {
	c.writes++
	return c.Buffer.WriteString(s)
}
