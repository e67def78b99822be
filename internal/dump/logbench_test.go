package dump

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/engine"
)

// genBigLog makes a generated log of about size bytes: a verbose build
// (layer information and tactic timing lines), per-layer tables of every
// layout and trace lines, repeated.
func genBigLog(size int) []byte {
	var recs []engine.ProfileRecord
	for i := range 200 {
		recs = append(recs, engine.ProfileRecord{Name: fmt.Sprintf("(Unnamed Layer* %d) [Convolution] + (Unnamed Layer* %d) [Activation]", i, i+1), TimeMs: float64(i%17) + 1.25, MedianMs: 0.01})
	}
	var chunk strings.Builder
	for i := range 200 {
		fmt.Fprintf(&chunk, "[06/21/2024-13:57:04] [V] [TRT] Layer(CaskConvolution): conv%d + relu%d, Tactic: 0x91a0ba608d3e9886, in%d[Int8(1,64,200,200)] -> out%d[Half(1,2,200,200)]\n", i, i, i, i)
		fmt.Fprintf(&chunk, "[06/21/2024-13:57:04] [V] [TRT] *************** Autotuning format combination: Half(1,2) -> Half(1,2) ***************\n[06/21/2024-13:57:04] [V] [TRT] --------------- Timing Runner: conv%d (CaskConvolution)\n[06/21/2024-13:57:04] [V] [TRT] Tactic: 0x02 Time: 0.25\n", i)
		chunk.WriteString("[06/21/2024-13:57:04] [I] Average on 10 runs - GPU latency: 3.45137 ms - Host latency: 7.07751 ms (enqueue 0.825635 ms)\n")
	}
	for _, era := range []string{"7.2", "8.4", "10.0"} {
		chunk.WriteString(genEraLog(era, recs, 1000, false))
	}
	c := chunk.String()
	var b strings.Builder
	b.Grow(size + len(c))
	for b.Len() < size {
		b.WriteString(c)
	}
	return []byte(b.String())
}

// BenchmarkParseTrtexecLog reads generated logs of 10 and 100 MB: the time
// per byte must stay flat (linear reading).
func BenchmarkParseTrtexecLog(b *testing.B) {
	for _, mb := range []int{10, 100} {
		data := genBigLog(mb << 20)
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ParseTrtexecLog(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
