package layerfacts

import (
	"math/bits"
	"strconv"
)

// Tactic families besides the table's own.
const (
	FamilyNone    = "none"    // the layer names no tactic
	FamilyUnknown = "unknown" // a tactic no row of tacticRules recognises
)

// tc is a tensor-core verdict of a rule row: unset rows leave it to later rows.
type tc int8

const (
	tcUnset tc = iota
	tcYes
	tcNo
)

// tacticRule is one row of THE tactic table. Rows are matched, in order, as
// case-insensitive substrings of the tactic name. The first matching row that
// has a Family gives the family, the first that has a TensorCore verdict gives
// it (no verdict: false), the first that has an Arch gives the architecture
// (when the name carries no smNN prefix). Specific rows therefore come before
// general ones: "h16816" before "cudnn", "ffma"/"simt" (CUDA-core math) before
// "xmma".
type tacticRule struct {
	Pattern    string
	Family     string
	TensorCore tc
	Arch       string
}

var tacticRules = []tacticRule{
	// Myelin-generated kernels (TensorRT 10 kgen): the hash says nothing of math.
	{Pattern: "__myl_", Family: "myelin"},
	// CUDA-core math markers inside otherwise tensor-core-capable families.
	{Pattern: "ffma", TensorCore: tcNo},
	{Pattern: "simt", TensorCore: tcNo},
	{Pattern: "gemvx", TensorCore: tcNo},
	{Pattern: "int8x4", TensorCore: tcNo}, // dp4a
	{Pattern: "wngd", TensorCore: tcNo},   // winograd on CUDA cores
	{Pattern: "winograd", TensorCore: tcNo},
	{Pattern: "pooling", TensorCore: tcNo},
	{Pattern: "scudnn", TensorCore: tcNo}, // FP32 cuDNN kernels: CUDA-core math
	{Pattern: "hcudnn", TensorCore: tcNo}, // FP16 cuDNN kernels without an MMA shape
	// Fused attention kernels (TensorRT's fused MHA v2, FMHA, flash
	// attention) are tensor-core kernels on every architecture they exist for.
	{Pattern: "gemm_mha", Family: "fmha", TensorCore: tcYes},
	{Pattern: "mha_v2", Family: "fmha", TensorCore: tcYes},
	{Pattern: "fmha", Family: "fmha", TensorCore: tcYes},
	{Pattern: "flash_att", Family: "fmha", TensorCore: tcYes},
	// Libraries and generators.
	{Pattern: "cublaslt", Family: "cublasLt"},
	{Pattern: "cublas", Family: "cublas"},
	{Pattern: "cutlass", Family: "cutlass"},
	{Pattern: "wgmma", Family: "wgmma", TensorCore: tcYes, Arch: "hopper"},
	{Pattern: "gmma", Family: "gmma", TensorCore: tcYes, Arch: "hopper"},
	{Pattern: "xmma", Family: "xmma"},
	// Tensor-core instruction shapes (cuDNN/cuBLAS kernel names).
	{Pattern: "h16816", Family: "h16816", TensorCore: tcYes},
	{Pattern: "h1688", Family: "h1688", TensorCore: tcYes},
	{Pattern: "s16816", Family: "s16816", TensorCore: tcYes}, // TF32
	{Pattern: "s1688", Family: "s1688", TensorCore: tcYes},   // TF32
	{Pattern: "i16832", Family: "i16832", TensorCore: tcYes},
	{Pattern: "i8816", Family: "i8816", TensorCore: tcYes},
	{Pattern: "imma", Family: "imma", TensorCore: tcYes},
	{Pattern: "hmma", Family: "hmma", TensorCore: tcYes},
	{Pattern: "_tensor", TensorCore: tcYes}, // xmma "..._tensor16x8x16..."
	{Pattern: "tf32", TensorCore: tcYes},
	{Pattern: "icudnn", Family: "icudnn"},
	{Pattern: "cudnn", Family: "cudnn"},
	{Pattern: "sgemm", Family: "cublas"},
	{Pattern: "hgemm", Family: "cublas"},
	// TensorRT's own generic kernels.
	{Pattern: "genericreformat", Family: "trt"},
	{Pattern: "trt_", Family: "trt"},
	{Pattern: "trtkernel", Family: "trt"},
	// Architectures named by word rather than smNN.
	{Pattern: "blackwell", Arch: "blackwell"},
	{Pattern: "hopper", Arch: "hopper"},
	{Pattern: "ampere", Arch: "ampere"},
	{Pattern: "turing", Arch: "turing"},
	{Pattern: "volta", Arch: "volta"},
	{Pattern: "pascal", Arch: "pascal"},
	{Pattern: "maxwell", Arch: "maxwell"},
}

// tacticScan finds which rows of tacticRules match a name in one pass: the
// rows are indexed by their first two bytes, so most positions of a name
// are rejected by one bit test (a myelin engine has 10^5 distinct tactic
// names, each classified once).
var tacticScan = func() (sc struct {
	pairs [256 * 256 / 64]uint64 // bit set: some pattern starts with these two bytes
	first [256][]uint8           // rows by first byte
}) {
	if len(tacticRules) > 64 {
		panic("layerfacts: tacticRules has more than 64 rows; widen the match set")
	}
	for i, r := range tacticRules {
		p := r.Pattern
		if len(p) < 2 || p != string(lowerInto(nil, p)) {
			panic("layerfacts: tactic pattern " + p + " must be lower case and ≥ 2 bytes")
		}
		k := int(p[0])<<8 | int(p[1])
		sc.pairs[k>>6] |= 1 << (k & 63)
		sc.first[p[0]] = append(sc.first[p[0]], uint8(i))
	}
	return sc
}()

func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// matchTacticRules returns bit i set when tacticRules[i].Pattern is a
// case-insensitive substring of s.
func matchTacticRules(s string) uint64 {
	var m uint64
	if len(s) < 2 {
		return 0
	}
	c1 := lowerByte(s[0])
	for i := 0; i+1 < len(s); i++ {
		c0 := c1
		c1 = lowerByte(s[i+1])
		k := int(c0)<<8 | int(c1)
		if tacticScan.pairs[k>>6]&(1<<(k&63)) == 0 {
			continue
		}
		for _, ri := range tacticScan.first[c0] {
			if hasPrefixLower(s[i:], tacticRules[ri].Pattern) {
				m |= 1 << ri
			}
		}
	}
	return m
}

// hasPrefixLower reports whether s starts with the lower-case pattern p,
// ignoring the ASCII case of s.
func hasPrefixLower(s, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for j := 0; j < len(p); j++ {
		if lowerByte(s[j]) != p[j] {
			return false
		}
	}
	return true
}

// TensorCoreUse is whether a kernel runs on tensor cores: a tactic no row of
// the table gives a verdict for is Unknown, never "CUDA cores".
type TensorCoreUse int8

const (
	TensorCoreUnknown TensorCoreUse = iota
	TensorCoreYes
	TensorCoreNo
)

func (u TensorCoreUse) String() string {
	switch u {
	case TensorCoreYes:
		return "yes"
	case TensorCoreNo:
		return "no"
	}
	return "unknown"
}

// Known reports whether the table gave a verdict.
func (u TensorCoreUse) Known() bool { return u != TensorCoreUnknown }

// Bool is the verdict as a JSON-ready value: nil when unknown.
func (u TensorCoreUse) Bool() *bool {
	switch u {
	case TensorCoreYes:
		t := true
		return &t
	case TensorCoreNo:
		f := false
		return &f
	}
	return nil
}

// TacticClass is what the tactic table says of one kernel name.
type TacticClass struct {
	Family     string
	TensorCore TensorCoreUse
	// Arch is the architecture the kernel was compiled for ("sm80",
	// "ampere", ...): a lower bound on the GPU, not necessarily the GPU.
	Arch string
}

// ClassifyTactic looks a tactic name up in the tactic table.
func ClassifyTactic(tactic string) TacticClass {
	if tactic == "" {
		return TacticClass{Family: FamilyNone}
	}
	var c TacticClass
	verdict := tcUnset
	for m := matchTacticRules(tactic); m != 0; m &= m - 1 {
		r := &tacticRules[bits.TrailingZeros64(m)]
		if c.Family == "" && r.Family != "" {
			c.Family = r.Family
		}
		if verdict == tcUnset && r.TensorCore != tcUnset {
			verdict = r.TensorCore
		}
		if c.Arch == "" && r.Arch != "" {
			c.Arch = r.Arch
		}
	}
	if sm := smPrefix(tactic); sm != "" {
		c.Arch = sm
		// Kernels built for architectures before Volta (sm70) cannot use
		// tensor cores, whatever else the name says.
		if n, err := strconv.Atoi(sm[2:]); err == nil && verdict == tcUnset && n < 70 {
			verdict = tcNo
		}
	}
	if c.Family == "" {
		c.Family = FamilyUnknown
	}
	switch verdict {
	case tcYes:
		c.TensorCore = TensorCoreYes
	case tcNo:
		c.TensorCore = TensorCoreNo
	}
	return c
}

// SMVersion is the architecture number a kernel name starts with
// ("sm86_xmma_…" → 86), 0 when it names none.
func SMVersion(tactic string) int {
	sm := smPrefix(tactic)
	if sm == "" || len(sm) > 6 {
		return 0
	}
	n := 0
	for _, c := range sm[2:] {
		n = n*10 + int(c-'0')
	}
	return n
}

// smPrefix returns "sm80" for "sm80_xmma_..." (the only place kernel names
// put the architecture number), else "".
func smPrefix(s string) string {
	if len(s) < 4 || (s[0] != 's' && s[0] != 'S') || (s[1] != 'm' && s[1] != 'M') {
		return ""
	}
	i := 2
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 2 || i < len(s) && s[i] != '_' {
		return ""
	}
	if s[0] == 's' && s[1] == 'm' {
		return s[:i] // a substring: no allocation
	}
	return "sm" + s[2:i]
}

// lowerInto appends the ASCII lower case of s to dst (no allocation while s
// fits dst's capacity).
func lowerInto(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}
