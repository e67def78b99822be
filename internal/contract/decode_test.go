package contract

import (
	"reflect"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/trtperf/trtperf/internal/contract/internal/fastjson"
)

// fill sets every field reachable from v to a non-zero value, so a field
// added to the types without regenerating encode_gen.go and decode_gen.go
// shows up.
func fill(v reflect.Value, seed int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + strings.Repeat("x", seed%3) + "\u241e\"")
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(seed + 1))
	case reflect.Float64:
		v.SetFloat(float64(seed) + 0.25)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), seed+1)
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[RawObject]() {
			v.SetBytes([]byte(`{"k":[1,{"x":"}"}]}`))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), seed+i+1)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for i := range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, seed+i)
			k.SetString(k.String() + string(rune('a'+i)))
			fill(e, seed+i+1)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), seed+i)
		}
	}
}

func TestFastDecodeMatchesJSONv2(t *testing.T) {
	full := smallDoc()
	b := &full.Results[0]
	fill(reflect.ValueOf(&b.Layers[1]).Elem(), 3)
	fill(reflect.ValueOf(&b.Records[2]).Elem(), 5)
	docs := map[string][]byte{
		"small":        encode(t, smallDoc()),
		"every field":  encode(t, full),
		"big":          encode(t, bigDoc(5000)),
		"nulls":        []byte(`{"schema_version":"1.0","results":[{"layers":[{"Name":null,"Inputs":null,"StreamId":null,"Parameters":null,"Bogus":[1]}],"records":null}]}`),
		"escaped keys": []byte(`{"schema_version":"1.0","results":[{"layers":[{"N\u0061me":"a\u0062","Inputs":[{"Format\/Datatype":"x","Dimensions":[]}]}],"records":[{"tags":[],"median_ms":null}]}]}`),
	}
	for name, data := range docs {
		t.Run(name, func(t *testing.T) {
			want := new(AnalyzeData)
			if err := jsonv2.Unmarshal(data, want); err != nil {
				t.Fatal(err)
			}
			got, err := Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				for i := range want.Results {
					if !reflect.DeepEqual(got.Results[i].Layers, want.Results[i].Layers) {
						t.Errorf("results/%d/layers differ:\nfast: %+v\nv2:   %+v", i, got.Results[i].Layers, want.Results[i].Layers)
					}
					if !reflect.DeepEqual(got.Results[i].Records, want.Results[i].Records) {
						t.Errorf("results/%d/records differ:\nfast: %+v\nv2:   %+v", i, got.Results[i].Records, want.Results[i].Records)
					}
				}
				t.Error("Decode differs from jsonv2.Unmarshal")
			}
		})
	}
}

func TestFastDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ in, ptr string }{
		{`{"schema_version":"1.0","results":[{"layers":[{"Name":1}]}]}`, "/results/0/layers/0/Name"},
		{`{"schema_version":"1.0","results":[{"records":[{},{"avg_ms":"x"}]}]}`, "/results/0/records/1/avg_ms"},
		{`{"schema_version":"1.0","results":[{"records":[{"layer":1.5}]}]}`, "/results/0/records/0/layer"},
		{`{"schema_version":"1.0","results":[{"layers":[{"Inputs":[{"Dimensions":[1,"2"]}]}]}]}`, "/results/0/layers/0/Inputs/0/Dimensions/1"},
		{`{"schema_version":"1.0","results":[{"layers":{}}]}`, "/results/0/layers"},
		{`{"schema_version":"1.0","results":[{"layers":[{"Parameters":[]}]}]}`, "/results/0/layers/0/Parameters"},
	} {
		_, err := Decode([]byte(tc.in))
		if err == nil || fastjson.ErrPointer(err) != tc.ptr {
			t.Errorf("Decode(%s): err %v at %q, want pointer %s", tc.in, err, fastjson.ErrPointer(err), tc.ptr)
		}
	}
}

// FuzzDecodeMatchesJSONv2 is the differential target of the hand-written
// decoder: whenever both it and the reflection-based jsonv2 accept a
// document, they must decode it to the same value.
func FuzzDecodeMatchesJSONv2(f *testing.F) {
	f.Add(encode(f, smallDoc()))
	f.Add(encode(f, bigDoc(fastjson.KeepHead+2)))
	f.Add([]byte(`{"schema_version":"1.0","results":[{"layers":[{"Name":null,"Inputs":null,"StreamId":null,"Parameters":null,"Bogus":[1]}],"records":null}]}`))
	f.Add([]byte(`{"schema_version":"1.0","results":[{"layers":[{"N\u0061me":"a\u0062","Inputs":[{"Format\/Datatype":"x","Dimensions":[]}]}],"records":[{"tags":[],"median_ms":null,"time_ms":1e308}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		want := new(AnalyzeData)
		if jsonv2.Unmarshal(data, want) != nil {
			return
		}
		got := new(AnalyzeData)
		if unmarshal(data, got) != nil {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the fast decoder and jsonv2 disagree on %q", data)
		}
	})
}
