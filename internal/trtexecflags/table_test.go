package trtexecflags

import (
	"slices"
	"strings"
	"testing"
)

// TestSupportedPerRelease pins, per option, the releases verified from
// sampleOptions.cpp (see table.go): the last release without it, the
// first with it, and where it was removed the last with it and the first
// without it.
func TestSupportedPerRelease(t *testing.T) {
	cases := []struct {
		flag string
		v    Version
		want bool
	}{
		{"--onnx", V(7, 0), true}, {"--onnx", V(11, 1), true},
		{"--uff", V(8, 6), true}, {"--uff", V(9, 0), false}, {"--uff", V(10, 0), false},
		{"--deploy", V(8, 6), true}, {"--deploy", V(9, 0), false},
		{"--model", V(8, 6), true}, {"--model", V(9, 0), false},
		{"--nativeInstanceNorm", V(8, 5), false}, {"--nativeInstanceNorm", V(8, 6), true}, {"--ni", V(8, 6), true}, {"--nativeInstanceNorm", V(9, 3), true}, {"--nativeInstanceNorm", V(10, 0), false},
		{"--saveEngine", V(7, 0), true}, {"--loadEngine", V(11, 1), true},
		{"--fp16", V(7, 0), true}, {"--fp16", V(10, 16), true}, {"--fp16", V(11, 0), false},
		{"--int8", V(10, 16), true}, {"--int8", V(11, 0), false},
		{"--best", V(7, 0), false}, {"--best", V(7, 1), true}, {"--best", V(10, 16), true}, {"--best", V(11, 0), false},
		{"--bf16", V(8, 6), false}, {"--bf16", V(9, 0), true}, {"--bf16", V(11, 0), false},
		{"--fp8", V(8, 5), false}, {"--fp8", V(8, 6), true}, {"--fp8", V(11, 0), false},
		{"--int4", V(10, 0), false}, {"--int4", V(10, 1), true}, {"--int4", V(11, 0), false},
		{"--noTF32", V(7, 0), false}, {"--noTF32", V(7, 1), true}, {"--noTF32", V(11, 1), true},
		{"--tf32", V(8, 6), false}, {"--tf32", V(11, 1), false},
		{"--stronglyTyped", V(8, 6), false}, {"--stronglyTyped", V(9, 0), true}, {"--stronglyTyped", V(11, 1), true},
		{"--precisionConstraints=obey", V(8, 0), false}, {"--precisionConstraints=obey", V(8, 2), true}, {"--precisionConstraints=prefer", V(10, 16), true}, {"--precisionConstraints=none", V(11, 0), false},
		{"--precisionConstraints=strict", V(8, 6), false},
		{"--layerPrecisions=a:fp16", V(8, 2), false}, {"--layerPrecisions=a:fp16", V(8, 4), true}, {"--layerPrecisions=a:fp16", V(11, 0), false},
		{"--layerOutputTypes=a:fp16+fp32", V(8, 4), true}, {"--layerOutputTypes=a:fp16", V(8, 2), false},
		{"--layerDeviceTypes=a:DLA", V(8, 5), false}, {"--layerDeviceTypes=a:DLA", V(8, 6), true}, {"--layerDeviceTypes=a:CPU", V(8, 6), false},
		{"--inputIOFormats=fp16:chw", V(7, 0), true}, {"--inputIOFormats=fp16:chw", V(11, 0), false}, {"--inputIOFormats=chw", V(11, 0), true},
		{"--outputIOFormats=bf16:chw", V(8, 6), false}, {"--outputIOFormats=bf16:chw", V(9, 0), true}, {"--outputIOFormats=fp16:hwc16", V(10, 9), false}, {"--outputIOFormats=fp16:hwc16", V(10, 10), true},
		{"--calib", V(10, 16), true}, {"--calib", V(11, 0), false},
		{"--shapes=x:1x3", V(7, 0), true}, {"--minShapes=x:1x3", V(11, 1), true}, {"--optShapes=x:1x3", V(8, 6), true}, {"--maxShapes=x:1x3", V(10, 0), true},
		{"--shapes=x:scalar", V(9, 3), false}, {"--shapes=x:scalar", V(10, 0), true},
		{"--batch=4", V(8, 6), true}, {"--batch=4", V(9, 0), false},
		{"--maxBatch=4", V(8, 6), true}, {"--maxBatch=4", V(9, 0), false},
		{"--explicitBatch", V(9, 3), true}, {"--explicitBatch", V(10, 0), false},
		{"--workspace=1024", V(9, 3), true}, {"--workspace=1024", V(10, 0), false},
		{"--memPoolSize=workspace:1024", V(8, 2), false}, {"--memPoolSize=workspace:1024", V(8, 4), true}, {"--memPoolSize=workspace:1G", V(9, 3), false}, {"--memPoolSize=workspace:1G", V(10, 0), true},
		{"--memPoolSize=tacticSharedMem:64", V(9, 3), false}, {"--memPoolSize=tacticSharedMem:64", V(10, 0), true},
		{"--builderOptimizationLevel=5", V(8, 5), false}, {"--builderOptimizationLevel=5", V(8, 6), true},
		{"--sparsity=enable", V(7, 2), false}, {"--sparsity=enable", V(8, 0), true}, {"--sparsity=force", V(11, 1), true},
		{"--useCudaGraph", V(7, 0), true}, {"--useCudaGraph", V(11, 1), true},
		{"--noDataTransfers", V(7, 1), false}, {"--noDataTransfers", V(7, 2), true}, {"--noDataTransfers", V(11, 1), true},
		{"--useSpinWait", V(7, 0), true},
		{"--separateProfileRun", V(7, 1), false}, {"--separateProfileRun", V(7, 2), true},
		{"--dumpProfile", V(7, 0), true}, {"--exportProfile=p.json", V(7, 0), true}, {"--exportTimes=t.json", V(7, 0), true}, {"--exportOutput=o.json", V(7, 0), true},
		{"--exportLayerInfo=l.json", V(8, 0), false}, {"--exportLayerInfo=l.json", V(8, 2), true},
		{"--dumpLayerInfo", V(8, 0), false}, {"--dumpLayerInfo", V(8, 2), true},
		{"--profilingVerbosity=detailed", V(8, 0), false}, {"--profilingVerbosity=detailed", V(8, 2), true}, {"--profilingVerbosity=verbose", V(8, 2), true}, {"--profilingVerbosity=full", V(8, 2), false},
		{"--nvtxMode=verbose", V(7, 0), false}, {"--nvtxMode=verbose", V(7, 1), true}, {"--nvtxMode=detailed", V(8, 0), false}, {"--nvtxMode=detailed", V(8, 2), true}, {"--nvtxMode=verbose", V(10, 0), false},
		{"--verbose", V(7, 0), true}, {"--iterations=10", V(7, 0), true}, {"--duration=3", V(7, 0), true}, {"--warmUp=200", V(11, 1), true}, {"--avgRuns=10", V(8, 6), true},
		{"--duration=2.5", V(8, 2), false}, {"--duration=2.5", V(8, 4), true},
		{"--timingCacheFile=c.cache", V(7, 2), false}, {"--timingCacheFile=c.cache", V(8, 0), true},
		{"--tacticSources=-cublasLt", V(7, 1), false}, {"--tacticSources=-cublasLt", V(7, 2), true}, {"--tacticSources=-CUDNN", V(7, 2), false}, {"--tacticSources=-cudnn", V(8, 0), true},
		{"--tacticSources=+JIT_CONVOLUTIONS", V(8, 4), false}, {"--tacticSources=+JIT_CONVOLUTIONS", V(8, 5), true}, {"--tacticSources=-CUBLAS", V(11, 0), false},
		{"--useDLACore=0", V(7, 0), true}, {"--allowGPUFallback", V(7, 0), true},
		{"--directIO", V(8, 0), false}, {"--directIO", V(8, 2), true},
		{"--versionCompatible", V(8, 5), false}, {"--versionCompatible", V(8, 6), true},
		{"--skipInference", V(8, 5), false}, {"--skipInference", V(8, 6), true},
		{"--buildOnly", V(9, 3), true}, {"--buildOnly", V(10, 0), false},
		{"--useProfile=0", V(8, 6), false}, {"--useProfile=0", V(9, 0), true},
		{"--profile=0", V(8, 6), false}, {"--profile=0", V(9, 0), true},
		{"--streams=2", V(7, 0), true}, {"--streams=2", V(11, 1), true},
		{"--infStreams=2", V(8, 5), false}, {"--infStreams=2", V(8, 6), true},
		{"--threads", V(7, 0), true}, {"--threads=4", V(8, 6), false},
		{"--consistency", V(8, 0), false}, {"--consistency", V(10, 3), true}, {"--consistency", V(10, 4), false}, {"--consistency", V(10, 12), false}, {"--consistency", V(10, 13), true},
		{"--hardwareCompatibilityLevel=Ampere+", V(8, 6), true}, {"--hardwareCompatibilityLevel=sameComputeCapability", V(10, 8), false}, {"--hardwareCompatibilityLevel=sameComputeCapability", V(10, 9), true},
		{"--preview=+fasterDynamicShapes0805", V(8, 5), true}, {"--preview=+fasterDynamicShapes0805", V(10, 0), false}, {"--preview=+aliasedPluginIO1003", V(10, 3), true},
		{"-h", V(7, 0), false}, {"-h", V(7, 1), true}, {"--help", V(7, 0), true},
	}
	for _, c := range cases {
		if got, why := Supported(c.flag, c.v); got != c.want {
			t.Errorf("Supported(%q, %s) = %v (%s), want %v", c.flag, c.v, got, why, c.want)
		}
	}
}

// TestSupportedWarnings: deprecations and deprecated words are accepted
// with a reason.
func TestSupportedWarnings(t *testing.T) {
	for _, c := range []struct {
		flag string
		v    Version
		want string
	}{
		{"--workspace=64", V(8, 4), "--memPoolSize"},
		{"--explicitBatch", V(8, 2), "deprecated since TensorRT 8.2"},
		{"--profilingVerbosity=default", V(10, 0), "deprecated"},
		{"--streams=2", V(8, 6), "--infStreams"},
		{"--useCudaGraph", V(11, 0), "deprecated since TensorRT 11.0"},
		{"--sparsity=force", V(9, 0), "deprecated"},
		{"--exportLayerInfo=x.json", Version{}, "8.2 and later"},
	} {
		ok, why := Supported(c.flag, c.v)
		if !ok || !strings.Contains(why, c.want) {
			t.Errorf("Supported(%q, %s) = %v, %q; want true with %q", c.flag, c.v, ok, why, c.want)
		}
	}
	if ok, why := Supported("--useCudaGraph", V(10, 0)); !ok || why != "" {
		t.Errorf("--useCudaGraph at 10.0 = %v, %q; want true with no reason", ok, why)
	}
	if ok, _ := Supported("--onnx", V(6, 0)); ok {
		t.Error("a release older than Oldest must not be reported as supported")
	}
}

// TestTableInvariants guards the table against editing slips.
func TestTableInvariants(t *testing.T) {
	if !slices.IsSortedFunc(Releases, func(a, b Version) int {
		if a.Less(b) {
			return -1
		}
		return 1
	}) {
		t.Error("Releases not sorted")
	}
	if Releases[0] != Oldest || Releases[len(Releases)-1] != Latest {
		t.Error("Releases must run from Oldest to Latest")
	}
	seen := map[string]bool{}
	for i, f := range table {
		if seen[f.Name] {
			t.Errorf("%s listed twice", f.Name)
		}
		seen[f.Name] = true
		if i > 0 && strings.TrimLeft(table[i-1].Name, "-") > strings.TrimLeft(f.Name, "-") && f.Name != "-h" {
			t.Errorf("%s out of order", f.Name)
		}
		if f.Added.Less(Oldest) || Latest.Less(f.Added) {
			t.Errorf("%s: Added %s outside %s–%s", f.Name, f.Added, Oldest, Latest)
		}
		if !f.Removed.IsZero() && !f.Added.Less(f.Removed) {
			t.Errorf("%s: Removed %s not after Added %s", f.Name, f.Removed, f.Added)
		}
		if !f.Deprecated.IsZero() && (f.Deprecated.Less(f.Added) || (!f.Removed.IsZero() && !f.Deprecated.Less(f.Removed))) {
			t.Errorf("%s: Deprecated %s outside its life", f.Name, f.Deprecated)
		}
		if !f.Deprecated.IsZero() && f.Instead == "" {
			t.Errorf("%s: deprecated without Instead", f.Name)
		}
		for j, s := range f.Values {
			if j > 0 && !f.Values[j-1].Since.Less(s.Since) {
				t.Errorf("%s: value specs not in release order", f.Name)
			}
			if (s.Kind == Enum || s.Kind == Toggles || s.Kind == MemPools) && len(s.Words)+len(s.Deprecated) == 0 {
				t.Errorf("%s: %s without words", f.Name, s.Kind)
			}
			if s.Kind == Switch {
				t.Errorf("%s: an explicit Switch spec; leave Values empty", f.Name)
			}
		}
		present := false
		for _, r := range Releases {
			present = present || f.In(r)
		}
		if !present {
			t.Errorf("%s is in no release", f.Name)
		}
	}
}

func TestFlags(t *testing.T) {
	v86 := Flags(V(8, 6))
	for _, want := range []string{"--onnx", "--fp16", "--exportLayerInfo", "--builderOptimizationLevel", "--workspace"} {
		if !slices.Contains(v86, want) {
			t.Errorf("Flags(8.6) lacks %s", want)
		}
	}
	if slices.Contains(v86, "--stronglyTyped") {
		t.Error("Flags(8.6) has --stronglyTyped (added in 9.0)")
	}
	unknown := Flags(Version{})
	if !slices.Contains(unknown, "--loadEngine") || slices.Contains(unknown, "--fp16") || slices.Contains(unknown, "--exportLayerInfo") {
		t.Errorf("Flags(unknown) must hold only options of every release from 8.0: %v", unknown)
	}
	if f, ok := Lookup("--memPoolSize=workspace:1"); !ok || f.Added != V(8, 4) {
		t.Errorf("Lookup(--memPoolSize=…) = %+v, %v", f, ok)
	}
	if _, ok := Lookup("--tf32"); ok {
		t.Error("Lookup(--tf32) found an option that never existed")
	}
}

// TestFlagSpan: a flag's span runs from its first release to the last
// release before its removal.
func TestFlagSpan(t *testing.T) {
	for _, tc := range []struct{ flag, want string }{
		{"--nativeInstanceNorm", "8.6–9.3"},
		{"--pluginInstanceNorm", "10.0 or newer"},
		{"--uff", "7.0–8.6"},
	} {
		f, ok := Lookup(tc.flag)
		if !ok {
			t.Fatalf("%s not in the table", tc.flag)
		}
		if got := f.Span().String(); got != tc.want {
			t.Errorf("%s span %s, want %s", tc.flag, got, tc.want)
		}
	}
}
