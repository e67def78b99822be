package compare

import "github.com/trtperf/trtperf/internal/contract"

// ComputeAlignedPct aligns the profiled layers of two backends, as a
// comparison pair does, and returns the share of their compute layers
// (both sides) that have a counterpart on the other side, in percent, and
// the number of compute layers counted. Two builds of one model align most
// of their compute layers; two different models, even with the same input
// shape, align few. It is the evidence the analysis needs before it calls
// two backends sibling builds.
func ComputeAlignedPct(a, b *contract.Backend) (pct float64, computeLayers int) {
	na, nb, aligned := align(newSide(a), newSide(b)).computeAligned()
	if na+nb == 0 {
		return 0, 0
	}
	return round2(float64(aligned) / float64(na+nb) * 100), na + nb
}

// computeAligned counts the compute layers of each side and those (of both
// sides) in a group with a layer of the other side.
func (al *aligner) computeAligned() (aCompute, bCompute, aligned int) {
	for i := range al.A.recs {
		if isCompute(&al.A.recs[i]) {
			aCompute++
			if g := al.gA[i]; g >= 0 && len(al.groups[g].b) > 0 {
				aligned++
			}
		}
	}
	for j := range al.B.recs {
		if isCompute(&al.B.recs[j]) {
			bCompute++
			if g := al.gB[j]; g >= 0 && len(al.groups[g].a) > 0 {
				aligned++
			}
		}
	}
	return aCompute, bCompute, aligned
}
