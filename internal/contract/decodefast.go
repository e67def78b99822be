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
// byte-level reader of package fastjson: this file is the decoder's table
// of which member goes where.
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

func (s dscan) tensors(v *[]Tensor) error {
	return fastjson.Slice(s.Reader, v, 2, func(t *Tensor) error {
		return s.Object(func(name []byte) error {
			switch string(name) {
			case "Name":
				return s.Str(&t.Name, false)
			case "Location":
				return s.Str(&t.Location, true)
			case "Dimensions":
				return s.Int64s(&t.Dimensions)
			case "Format/Datatype":
				return s.Str(&t.Format, true)
			case "Extra":
				return s.Raw(&t.Extra)
			}
			s.Skip()
			return nil
		})
	})
}

func (s dscan) layer(l *Layer) error {
	return s.Object(func(name []byte) error {
		switch string(name) {
		case "Name":
			return s.Str(&l.Name, false)
		case "LayerType":
			return s.Str(&l.LayerType, true)
		case "Inputs":
			return s.tensors(&l.Inputs)
		case "Outputs":
			return s.tensors(&l.Outputs)
		case "Constants":
			return s.tensors(&l.Constants)
		case "ParameterType":
			return s.Str(&l.ParameterType, true)
		case "TacticName":
			return s.Str(&l.TacticName, true)
		case "TacticValue":
			return s.Str(&l.TacticValue, false)
		case "Origin":
			return s.Str(&l.Origin, true)
		case "StreamId":
			return s.OptInt(&l.StreamID)
		case "Metadata":
			return s.Str(&l.Metadata, false)
		case "_subgraph":
			return s.Str(&l.Subgraph, true)
		case "OptimizationProfile":
			return s.Int(&l.OptProfile)
		case "Parameters":
			return s.Raw(&l.Parameters)
		}
		s.Skip()
		return nil
	})
}

func (s dscan) record(r *Record) error {
	return s.Object(func(name []byte) error {
		switch string(name) {
		case "name":
			return s.Str(&r.Name, false)
		case "layer":
			return s.Int(&r.Layer)
		case "layer_type":
			return s.Str(&r.LayerType, true)
		case "raw_layer_type":
			return s.Str(&r.RawLayerType, true)
		case "precision":
			return s.Str(&r.Precision, true)
		case "input_types":
			return s.Strs(&r.InputTypes, true)
		case "output_types":
			return s.Strs(&r.OutputTypes, true)
		case "tactic":
			return s.Str(&r.Tactic, true)
		case "tactic_family":
			return s.Str(&r.TacticFamily, true)
		case "tensor_core":
			if s.Null() {
				r.TensorCore = nil
				return nil
			}
			v := new(bool)
			r.TensorCore = v
			return s.Bool(v)
		case "myelin_graph":
			return s.OptInt(&r.MyelinGraph)
		case "fused_ops":
			return s.Int(&r.FusedOps)
		case "time_ms":
			return s.Float(&r.TimeMs)
		case "avg_ms":
			return s.Float(&r.AvgMs)
		case "median_ms":
			return s.OptFloat(&r.MedianMs)
		case "percentage":
			return s.Float(&r.Percentage)
		case "tags":
			return s.Strs(&r.Tags, true)
		case "flops":
			return s.OptFloat(&r.FLOPs)
		case "bytes":
			return s.OptFloat(&r.Bytes)
		case "roofline":
			if s.Null() {
				r.Roofline = nil
				return nil
			}
			r.Roofline = new(RecordRoofline)
			return s.recordRoofline(r.Roofline)
		}
		s.Skip()
		return nil
	})
}

func (s dscan) recordRoofline(r *RecordRoofline) error {
	return s.Object(func(name []byte) error {
		switch string(name) {
		case "time_ms":
			return s.Float(&r.TimeMs)
		case "achieved_tflops":
			return s.Float(&r.AchievedTFLOPS)
		case "achieved_gbs":
			return s.OptFloat(&r.AchievedGBs)
		case "intensity":
			return s.OptFloat(&r.Intensity)
		case "peak_precision":
			return s.Str(&r.PeakPrecision, true)
		case "attainable_tflops":
			return s.OptFloat(&r.AttainableTFLOPS)
		case "bound":
			if s.Null() {
				r.Bound = nil
				return nil
			}
			r.Bound = new(string)
			return s.Str(r.Bound, true)
		case "pct_of_attainable":
			return s.OptFloat(&r.PctOfAttainable)
		}
		s.Skip()
		return nil
	})
}
