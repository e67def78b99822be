package compare

import (
	"math"

	"github.com/trtperf/trtperf/internal/contract"
)

// sameWorkTolerance: aligned groups whose FLOPs (or, where a side does not
// know them, output elements) differ by more than this fraction of the
// larger do different work (another layer size, kernel or stride),
// whatever their names say; builds of one model compute the same FLOPs and
// write the same tensors per layer whatever their precision or tactics.
const sameWorkTolerance = 0.1

// MinSameWorkPct is the share of compute layers (SameWorkPct) from which
// two backends are builds of one model. Builds of one model align 57–100 %
// in the corpus (Torch-TensorRT's extra clamp kernels and fused conv+pool
// layers are the rest); different models with the same input shape align
// at most 20 % (ResNet18 vs ResNet50 19.5 %, AlexNet vs VGG16 15 %, whose
// layers share torchvision's names). Under it a comparison gives only the
// end-to-end numbers, and the analysis calls no backend another's
// sibling.
const MinSameWorkPct = 50.0

// SameWorkPct aligns the profiled layers of two backends (the layers of
// their layer info when they have no profile), as a comparison pair does,
// and returns the share of their compute layers (both sides)
// that have a counterpart on the other side doing the same work (the same
// FLOPs, else the same output elements, within sameWorkTolerance, when both
// sides know them), in percent,
// and the number of compute layers counted. Builds of one model align
// nearly all their compute layers with the same work; two models, even
// with the same input shape and the same exporter's layer names
// (torchvision's features.N), do not. It is the evidence the analysis
// needs before it calls two backends sibling builds.
func SameWorkPct(a, b *contract.Backend) (pct float64, computeLayers int) {
	return align(kinSide(a), kinSide(b)).sameWork()
}

// kinSide is a backend's side for the kinship evidence: its profile
// records, else one untimed record per layer of its layer info (a
// layer_only build): what a layer computes needs no time.
func kinSide(b *contract.Backend) *side {
	if len(b.Records) > 0 {
		return newSide(b)
	}
	return newSideOf(b, layerRecords(b, nil))
}

// sameWork is SameWorkPct of an alignment.
func (al *aligner) sameWork() (pct float64, computeLayers int) {
	na, nb, _ := al.computeAligned()
	if na+nb == 0 {
		return 0, 0
	}
	same := 0
	for k := range al.groups {
		g := &al.groups[k]
		if len(g.a) == 0 || len(g.b) == 0 {
			continue
		}
		wa, wb := groupWork(al.A, g.a), groupWork(al.B, g.b)
		if differ(wa.flops, wb.flops) || !(wa.flops > 0 && wb.flops > 0) && differ(wa.elems, wb.elems) {
			continue
		}
		same += wa.compute + wb.compute
	}
	return round2(float64(same) / float64(na+nb) * 100), na + nb
}

// work is what a group's compute records compute on one side: FLOPs and
// output elements, each 0 when a record does not know it.
type work struct {
	flops, elems float64
	compute      int
}

func groupWork(s *side, idx []int) work {
	var w work
	flopsKnown, elemsKnown := true, true
	for _, i := range idx {
		r := &s.recs[i]
		if !isCompute(r) {
			continue
		}
		w.compute++
		if r.FLOPs != nil && *r.FLOPs > 0 {
			w.flops += *r.FLOPs
		} else {
			flopsKnown = false
		}
		n := 0.0
		if l := s.layer(i); l != nil {
			for _, t := range l.Outputs {
				e := 1.0
				for _, d := range t.Dimensions {
					e *= float64(max(d, 0))
				}
				n += e
			}
		}
		if n > 0 {
			w.elems += n
		} else {
			elemsKnown = false
		}
	}
	if !flopsKnown {
		w.flops = 0
	}
	if !elemsKnown {
		w.elems = 0
	}
	return w
}

// differ: both amounts are known and differ beyond sameWorkTolerance.
func differ(a, b float64) bool {
	return a > 0 && b > 0 && math.Abs(a-b) > sameWorkTolerance*max(a, b)
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
