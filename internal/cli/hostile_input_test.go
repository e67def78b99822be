//go:build unix

package cli

import "strings"

// inputHostileCases are the input-side attacks of issue 24 (bounds,
// sizes, encodings) in the hostile catalogue; TestHostileInputCatalogue
// runs them with the others.
func inputHostileCases() []hostile {
	var cs []hostile
	add := func(h ...hostile) { cs = append(cs, h...) }

	// 16k profile documents appended to one file: split in linear time
	// (39 s and 890 MB before; BenchmarkConcatenatedProfiles).
	add(analyzeCase("16k concatenated profile documents", okLayers, strings.Repeat(okProfile+"\n", 16384), 0, "profile_json_concatenated"))
	return cs
}
