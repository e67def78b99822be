package layerfacts

import (
	"math/bits"
	"slices"
	"testing"
)

// TestTagVocabulary: the vocabulary is sorted (tagSet bit order relies on
// it), has no duplicates, matches the tagSet constants, and TagIndex
// agrees with Tags.
func TestTagVocabulary(t *testing.T) {
	tags := Tags()
	if !slices.IsSorted(tags) || len(slices.Compact(slices.Clone(tags))) != len(tags) {
		t.Fatalf("Tags() = %q: want sorted and unique", tags)
	}
	if got, want := len(tags), bits.Len32(uint32(tagMask)); got != want {
		t.Errorf("%d tags but %d tagSet bits", got, want)
	}
	for i, tag := range tags {
		if j, ok := TagIndex(tag); !ok || j != i {
			t.Errorf("TagIndex(%q) = %d, %v; want %d, true", tag, j, ok, i)
		}
		if got := tagSet(1 << i).strings(); !slices.Equal(got, []string{tag}) {
			t.Errorf("bit %d names %q, want %q", i, got, tag)
		}
	}
	if _, ok := TagIndex("convolution"); ok {
		t.Error(`TagIndex("convolution"): a name word, not a tag`)
	}
}
