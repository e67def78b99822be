package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/trtperf/trtperf/internal/contract"
)

// A details script is
//
//	window.__trtperfDetails(b, c, PACKED);
//
// where PACKED (see writePacked) is {"layers":[...],"records":[...]} with
// DetailChunk layers and, for each, its profile record or null. The layer
// and record objects are the bytes analyze-data.json already holds
// (located by a contract.Index); encoding 10^5 layers a second time would
// cost as much as writing analyze-data.json.

// checkIndex makes sure idx fits d and encoded, so that a wrong index fails
// the build instead of writing garbled details.
func checkIndex(d *contract.AnalyzeData, encoded []byte, idx *contract.Index) error {
	if len(idx.Results) != len(d.Results) {
		return fmt.Errorf("internal error: the layer index has %d backends, the analysis %d", len(idx.Results), len(d.Results))
	}
	for bi := range d.Results {
		b, x := &d.Results[bi], &idx.Results[bi]
		if len(x.Layers) != len(b.Layers) || len(x.Records) != len(b.Records) {
			return fmt.Errorf("internal error: the layer index of %s has %d layers and %d records, the analysis %d and %d",
				b.Label, len(x.Layers), len(x.Records), len(b.Layers), len(b.Records))
		}
		for _, spans := range [][]contract.Span{x.Layers, x.Records} {
			for i, s := range spans {
				if s.Start < 0 || s.End > int64(len(encoded)) || s.End-s.Start < 2 || encoded[s.Start] != '{' || encoded[s.End-1] != '}' {
					return fmt.Errorf("internal error: the layer index of %s does not point at object %d of the encoded analysis", b.Label, i)
				}
			}
		}
	}
	return nil
}

// detailJobs returns one write per details script of backend bi.
//
// With records (a profile_only backend: the rows are its records, see
// recordRows), row k is record k with its layer, when it has one.
func detailJobs(dir string, bi int, b *contract.Backend, encoded []byte, x *contract.BackendIndex, records bool) []func() error {
	n := len(b.Layers)
	// layer and record of each row, -1 for none
	lay := make([]int32, 0)
	rec := make([]int32, n)
	if records {
		n = len(b.Records)
		lay, rec = make([]int32, n), make([]int32, n)
		for i := range b.Records {
			lay[i], rec[i] = -1, int32(i)
			if l := b.Records[i].Layer; l >= 0 && l < len(b.Layers) {
				lay[i] = int32(l)
			}
		}
	} else {
		for i := range rec {
			rec[i] = -1
		}
		for i := range b.Records {
			if l := b.Records[i].Layer; l >= 0 && l < len(rec) {
				rec[l] = int32(i)
			}
		}
	}
	layerOf := func(row int) (contract.Span, bool) {
		if !records {
			return x.Layers[row], true
		}
		if l := lay[row]; l >= 0 {
			return x.Layers[l], true
		}
		return contract.Span{}, false
	}
	var jobs []func() error
	for start := 0; start < n; start += DetailChunk {
		end := min(start+DetailChunk, n)
		c := start / DetailChunk
		file := filepath.Join(dir, DirDetails, fmt.Sprintf("%d-%d.js", bi, c))
		jobs = append(jobs, func() error {
			return writeScriptFunc(file, func(w *bufio.Writer) error {
				if _, err := fmt.Fprintf(w, "window.__trtperfDetails(%d, %d, ", bi, c); err != nil {
					return err
				}
				// z keeps its first write error and returns it at the end.
				err := writePacked(w, func(z io.Writer) error {
					io.WriteString(z, `{"layers":[`)
					writeSpans(z, encoded, end-start, func(k int) (contract.Span, bool) { return layerOf(start + k) })
					io.WriteString(z, `],"records":[`)
					writeSpans(z, encoded, end-start, func(k int) (contract.Span, bool) {
						if r := rec[start+k]; r >= 0 {
							return x.Records[r], true
						}
						return contract.Span{}, false
					})
					_, err := io.WriteString(z, "]}")
					return err
				})
				if err != nil {
					return err
				}
				_, err = w.WriteString(");\n")
				return err
			})
		})
	}
	return jobs
}

// writeSpans writes n array elements separated by commas: element k is
// encoded[span] for span, ok := elem(k), or null when !ok. Elements that
// follow each other in encoded with one comma between (a run of layers or
// records as Encode writes them) are written as one slice: the bytes are
// the same, the compressor gets them in one call and nothing is copied.
func writeSpans(z io.Writer, encoded []byte, n int, elem func(k int) (contract.Span, bool)) {
	var run contract.Span // pending contiguous elements; empty when none
	flush := func() {
		if run.End > run.Start {
			z.Write(encoded[run.Start:run.End])
			run = contract.Span{}
		}
	}
	for k := range n {
		s, ok := elem(k)
		if ok && run.End > run.Start && s.Start == run.End+1 && encoded[run.End] == ',' {
			run.End = s.End
			continue
		}
		flush()
		if k > 0 {
			io.WriteString(z, ",")
		}
		if ok {
			run = s
		} else {
			io.WriteString(z, "null")
		}
	}
	flush()
}

// scriptBuffers holds the write buffers of writeScriptFunc: a report of
// 10^5 layers writes a few hundred files, one buffer each would be 60 MB
// of fresh memory.
var scriptBuffers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 256<<10) }}

// writeScriptFunc creates file (which must not exist) and lets write fill
// it through a buffer.
func writeScriptFunc(file string, write func(*bufio.Writer) error) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create %s: %w", file, err)
	}
	w := scriptBuffers.Get().(*bufio.Writer)
	w.Reset(f)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	w.Reset(nil)
	scriptBuffers.Put(w)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}
