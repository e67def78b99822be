package findings

import (
	"fmt"

	"github.com/trtperf/trtperf/internal/contract"
)

// partKey identifies the engine or Myelin graph a layer belongs to: kind 1
// is engine s (a subgraph), 2 Myelin graph n, 3 the Myelin region that is
// layer n; kind 0 is none (layers TensorRT runs outside any). A key, not a
// name, so 10^5 layers build no strings.
type partKey struct {
	kind uint8
	n    int
	s    string
}

func (c *evaluation) partKeyOf(layer int, subgraphs bool) partKey {
	l := &c.b.Layers[layer]
	if subgraphs {
		return partKey{kind: 1, s: l.Subgraph}
	}
	if i := c.recOf[layer]; i >= 0 && c.rinfo[i].hasMyl {
		return partKey{kind: 2, n: c.rinfo[i].myl}
	}
	if l.LayerType == "Myelin" {
		return partKey{kind: 3, n: layer}
	}
	return partKey{}
}

// partitionIDs numbers every layer's partition (0: none) and counts the
// distinct partitions.
func (c *evaluation) partitionIDs(subgraphs bool) (ids []int32, count int) {
	ids = make([]int32, len(c.b.Layers))
	seen := map[partKey]int32{}
	var last partKey
	var lastID int32
	for i := range c.b.Layers {
		k := c.partKeyOf(i, subgraphs)
		if k.kind == 0 {
			continue
		}
		if k != last || lastID == 0 { // neighbours mostly share a partition
			id, ok := seen[k]
			if !ok {
				id = int32(len(seen) + 1)
				seen[k] = id
			}
			last, lastID = k, id
		}
		ids[i] = lastID
	}
	return ids, len(seen)
}

func evalPartitionGlue(c *evaluation) *contract.Finding {
	useSub := false
	for i := range c.b.Layers {
		if c.b.Layers[i].Subgraph != c.b.Layers[0].Subgraph {
			useSub = true // more than one distinct subgraph
			break
		}
	}
	part, nParts := c.partitionIDs(useSub)
	if nParts < 2 {
		return nil
	}
	recs := c.selectTimed(func(_ *contract.Record, t *timedInfo) bool {
		if !t.k.is(fGlue) {
			return false
		}
		own := part[t.layer]
		for _, ns := range [][]int32{c.preds(int(t.layer)), c.succs(int(t.layer))} {
			for _, n := range ns {
				if p := part[n]; p != 0 && p != own {
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
	f.Metrics["partitions"] = float64(nParts)
	f.Evidence = append(f.Evidence,
		fmt.Sprintf("The engine runs %d %s; %d reformat/shape/cast layers at their borders take %.4f ms (%.2f%%).", nParts, kind, len(recs), sumMs(recs), c.pct(sumMs(recs))),
		"Largest: "+c.topNames(recs, 5)+".")
	return f
}
