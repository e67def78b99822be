package corpustest

import "strings"

// Capability is what a corpus test checks that generated fixtures cannot:
// behaviour on real TensorRT dumps. Every caller of Dir names one, so a
// checkout without the corpus can say what it left untested.
type Capability int

// The capabilities, in the order the note lists them. TestCapabilitiesUsed
// fails when one is unused or a test names none.
const (
	Parsing     Capability = iota // every real dump era reads as expected.json says
	Companions                    // trtexec logs, TREx metadata and --exportTimes files
	Discovery                     // labels and pairing of real folders' files
	LayerFacts                    // derived type, precision, tactic and FLOPs of real layers
	Verdicts                      // findings and advice against the expert's DIAGNOSIS.md
	Comparison                    // alignment and verdicts of real sibling builds
	Summary                       // summary goldens of real dumps
	AgentChecks                   // analyze.md checks on real agent analyses
	Reports                       // packaging and rendering reports of real dumps
	Issues                        // real trtexec console pastes of ../shared/issues and their resolutions
	CostModel                     // the cost model's calibration and predictions against measured layers
	numCapabilities
)

var capabilityText = [numCapabilities]string{
	Parsing:     "real dump eras read as expected.json says",
	Companions:  "companion files (trtexec logs, TREx metadata, exportTimes)",
	Discovery:   "file discovery and labels of real folders",
	LayerFacts:  "layer facts (type, precision, tactic, FLOPs) of real layers",
	Verdicts:    "findings against the expert's DIAGNOSIS.md",
	Comparison:  "comparison of real sibling builds",
	Summary:     "summary goldens of real dumps",
	AgentChecks: "analyze.md checks on real agent analyses",
	Reports:     "reports packaged and rendered from real dumps",
	Issues:      "trtexec console logs pasted in real issue threads (../shared/issues)",
	CostModel:   "cost model calibration and predictions against measured layers",
}

func (c Capability) describe() string {
	if c < 0 || c >= numCapabilities {
		return "an unnamed capability"
	}
	return capabilityText[c]
}

// untested lists every capability, for the one-line note.
func untested() string {
	parts := make([]string, 0, numCapabilities)
	for c := range numCapabilities {
		parts = append(parts, c.describe())
	}
	return strings.Join(parts, "; ")
}
