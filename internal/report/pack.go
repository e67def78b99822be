package report

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"github.com/klauspost/compress/gzip"
	"io"
	"sync"
)

// The lazily loaded per-layer scripts (sources, details) hold their JSON
// packed:
// a JavaScript string literal of the base64 of its gzip, which the app
// inflates with the browser's DecompressionStream. A page opened from
// file:// cannot read analyze-data.json itself, so the report must carry
// the layers a second time; packed, that copy is about a seventh of the
// JSON (details of 10^5 LLM layers: 135 MB as JSON, 21 MB packed), which
// keeps the report folder within 1.3× analyze-data.json (1.28× with the
// plain columns). The gzip is klauspost/compress's at its fastest level:
// on the details of a 200k-layer engine it runs about 3× faster than the
// standard library's (100 MB of analysis JSON: 0.19 s against 0.59 s on
// one core) and packs smaller (9.4 % against 10.4 %); the output is plain
// gzip that DecompressionStream reads, and deterministic (no name, no time
// stamp in the header).

var gzipPool = sync.Pool{New: func() any {
	w, err := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	if err != nil {
		panic(err) // BestSpeed is a valid level
	}
	return w
}}

var batchPool = sync.Pool{New: func() any { return bufio.NewWriterSize(io.Discard, 64<<10) }}

// writePacked writes fill's JSON to w as a packed string literal (with its
// quotes). Base64 needs no escaping inside a script.
func writePacked(w *bufio.Writer, fill func(io.Writer) error) error {
	if err := w.WriteByte('"'); err != nil {
		return err
	}
	b64 := base64.NewEncoder(base64.StdEncoding, w)
	gz := gzipPool.Get().(*gzip.Writer)
	defer gzipPool.Put(gz)
	gz.Reset(b64)
	// fill writes many small pieces (a comma, a layer): batch them, as each
	// gzip Write has a fixed cost.
	batch := batchPool.Get().(*bufio.Writer)
	defer batchPool.Put(batch)
	batch.Reset(gz)
	if err := fill(batch); err != nil {
		return err
	}
	if err := batch.Flush(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return fmt.Errorf("compress: %w", err)
	}
	if err := b64.Close(); err != nil {
		return err
	}
	return w.WriteByte('"')
}
