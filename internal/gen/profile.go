package gen

import (
	"fmt"
	"math"
	"strings"
)

// timerTick is the resolution of the CUDA-event medians trtexec reports.
const timerTick = 0.001024

// writeProfile writes the profile in the requested kind from the names and
// average times the emitter recorded, in layer order.
func writeProfile(j *jw, o Options, names []string, avgs []float64) {
	mismatch := spreadSet(o.MismatchNames, len(names))
	nameAt := func(i int) string {
		if mismatch[i] {
			return mismatchName(names[i])
		}
		return names[i]
	}
	r := newRNG(o.Seed, 200)
	switch o.ProfileKind {
	case "latency", "latency-pairs":
		writeLatency(j, o, nameAt, avgs, r)
		return
	}
	for c := 0; c < o.Concatenated; c++ {
		// A batch sweep: each further document is a bigger batch, slower
		// per layer, run for fewer iterations.
		scale := 1 + 0.85*float64(c)
		count := max(1, o.Count/(1+c))
		rounded := make([]float64, len(avgs))
		sum := 0.0
		for i, a := range avgs {
			rounded[i] = round6(a * scale)
			sum += rounded[i]
		}
		j.raw("[\n")
		first := true
		if !o.NoCount {
			j.raw(`  { "count" : `)
			j.int(int64(count))
			j.raw(" }\n")
			first = false
		}
		for i, a := range rounded {
			if first {
				j.raw("  ")
				first = false
			} else {
				j.raw(", ")
			}
			j.raw(`{ "name" : `)
			j.str(nameAt(i))
			j.raw(`, "timeMs" : `)
			j.g6(a * float64(count))
			j.raw(`, "averageMs" : `)
			j.g6(a)
			if !o.NoMedian {
				j.raw(`, "medianMs" : `)
				j.g6(median(a, count, r))
			}
			j.raw(`, "percentage" : `)
			pct := 0.0
			if sum > 0 {
				pct = a / sum * 100
			}
			j.g6(pct)
			j.raw(" }\n")
		}
		j.raw("]\n")
	}
}

// median is close to the average: on the timer's grid for real iteration
// counts, exactly the average for a single run.
func median(avg float64, count int, r *rng) float64 {
	if count == 1 || avg == 0 {
		return avg
	}
	m := avg * (0.97 + 0.04*r.float())
	if avg > 0.01 {
		m = math.Round(m/timerTick) * timerTick
	}
	return m
}

// writeLatency writes a per-layer latency dict the way a Python IProfiler
// script dumps it (json.dump, indent=4): {name: [ms, ...]} or, for
// "latency-pairs", {name: [[ms, "timestamp"], ...]}.
func writeLatency(j *jw, o Options, nameAt func(int) string, avgs []float64, r *rng) {
	pairs := o.ProfileKind == "latency-pairs"
	total := 0.0
	for _, a := range avgs {
		total += a
	}
	period := total + 0.5 // ms between inferences
	j.raw("{")
	elapsed := 0.0
	for i, a := range avgs {
		if i > 0 {
			j.raw(",")
		}
		j.raw("\n    ")
		j.str(nameAt(i))
		j.raw(": [")
		for s := 0; s < o.Count; s++ {
			if s > 0 {
				j.raw(",")
			}
			v := 0.0
			if a > 0 {
				// Samples are float32 CUDA-event readings; the first is a warm-up.
				v = float64(float32(a * (0.9 + 0.2*r.float()) * warm(s)))
			}
			if pairs {
				j.raw("\n        [\n            ")
				j.pyFloat(v)
				j.raw(",\n            ")
				j.str(timestamp(float64(s)*period + elapsed))
				j.raw("\n        ]")
			} else {
				j.raw("\n        ")
				j.pyFloat(v)
			}
		}
		j.raw("\n    ]")
		elapsed += a
	}
	j.raw("\n}")
}

func warm(s int) float64 {
	if s == 0 {
		return 1.4
	}
	return 1
}

// timestamp renders base + ms as "20241030-15:06:45.910735".
func timestamp(ms float64) string {
	us := int64(ms*1000) + ((15*60+6)*60+45)*1_000_000 + 910735
	sec := us / 1_000_000
	return fmt.Sprintf("20241030-%02d:%02d:%02d.%06d", sec/3600%24, sec/60%60, sec%60, us%1_000_000)
}

func spreadSet(k, n int) map[int]bool {
	m := make(map[int]bool, k)
	for i := 0; i < k; i++ {
		m[(2*i+1)*n/(2*k)] = true
	}
	return m
}

// mismatchName is what another build of the model might call the layer: a
// PyTorch module path instead of the ONNX one, or a clone suffix.
func mismatchName(s string) string {
	if strings.Contains(s, "/") {
		return strings.ReplaceAll(strings.TrimPrefix(s, "/"), "/", ".")
	}
	return s + "_clone_1"
}
