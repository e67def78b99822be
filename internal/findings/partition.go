package findings

import (
	"fmt"
	"strconv"

	"github.com/trtperf/trtperf/internal/contract"
)

// partitionOf names the engine or Myelin graph a layer belongs to, "" for
// layers TensorRT runs outside any.
func (c *ctx) partitionOf(layer int, subgraphs bool) string {
	l := &c.b.Layers[layer]
	if subgraphs {
		return "engine " + l.Subgraph
	}
	if r := c.record(layer); r != nil && r.MyelinGraph != nil {
		return "myelin graph " + strconv.Itoa(*r.MyelinGraph)
	}
	if l.LayerType == "Myelin" {
		return "myelin region " + strconv.Itoa(layer)
	}
	return ""
}

func isGlue(r *contract.Record) bool {
	return isReformat(r) || isShapeLayer(r) || hasAnyTag(r, "copy", "cast")
}

func evalPartitionGlue(c *ctx) *contract.Finding {
	subs := map[string]bool{}
	for i := range c.b.Layers {
		subs[c.b.Layers[i].Subgraph] = true
	}
	useSub := len(subs) > 1
	parts := map[string]int{}
	for i := range c.b.Layers {
		if p := c.partitionOf(i, useSub); p != "" {
			parts[p]++
		}
	}
	if len(parts) < 2 {
		return nil
	}
	recs := c.selectTimed(func(r *contract.Record) bool {
		if !isGlue(r) {
			return false
		}
		own := c.partitionOf(r.Layer, useSub)
		for _, ns := range [][]int32{c.preds(r.Layer), c.succs(r.Layer)} {
			for _, n := range ns {
				if p := c.partitionOf(int(n), useSub); p != "" && p != own {
					return true
				}
			}
		}
		return false
	})
	if len(recs) == 0 || c.pct(sumMs(recs)) < 0.5 {
		return nil
	}
	f := c.newFinding("partition_glue", contract.ConfidenceMedium, recs)
	kind := "Myelin graphs/regions"
	if useSub {
		kind = "engines (subgraphs)"
	}
	f.Metrics["partitions"] = float64(len(parts))
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("The engine runs %d %s; %d reformat/shape/cast layers at their borders take %.4f ms (%.2f%%).", len(parts), kind, len(recs), sumMs(recs), c.pct(sumMs(recs))),
		"Largest: "+c.topNames(recs, 5)+".")
	return f
}
