package contract

import (
	"runtime"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/trtperf/trtperf/internal/contract/internal/fastjson"
)

// Decoding a 200k-layer file through reflection takes ~2 s, almost all of
// it in the layers and records arrays. unmarshal lets go-json-experiment
// read everything else, but for those two arrays only finds each element's
// bytes (a syntax-checking scan) and decodes the elements with the
// hand-written parsers below, in parallel with the rest of the document.
// The result equals jsonv2.Unmarshal's (decode_test.go pins this).

// dscan reads the contract's big-array elements member by member with the
// byte-level reader of package fastjson; its methods per type are generated
// from types.go into decode_gen.go (strings tagged contract:"intern" share
// one copy of each distinct value).
type dscan struct{ *fastjson.Reader }

func unmarshal(data []byte, d *AnalyzeData) error {
	return unmarshalIndexed(data, d, nil)
}

// unmarshalIndexed is unmarshal that also fills idx, when not nil, with the
// spans of the layers and records elements.
func unmarshalIndexed(data []byte, d *AnalyzeData, idx *Index) error {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		sem  = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	)
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	layers := jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *[]Layer) error {
		return fastjson.Collect(dec, data, v, idx.spanSink(data), &wg, sem, fail, func(r *fastjson.Reader, l *Layer) error { return dscan{r}.layer(l) })
	})
	records := jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *[]Record) error {
		return fastjson.Collect(dec, data, v, idx.spanSink(data), &wg, sem, fail, func(r *fastjson.Reader, rec *Record) error { return dscan{r}.record(rec) })
	})
	err := jsonv2.Unmarshal(data, d, jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(layers, records)))
	wg.Wait()
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}
