package contract

import "testing"

// TestWhyNotComparable: the one rule compare selects backends by and the
// semantic check holds pairs to.
func TestWhyNotComparable(t *testing.T) {
	rec := []Record{{Name: "a", AvgMs: 1}}
	cases := []struct {
		name string
		b    Backend
		ok   bool
	}{
		{"layer_profile", Backend{Validation: BackendValidation{Status: StatusPassed, AnalysisMode: ModeLayerProfile}, Timing: &Timing{PercentageSum: 100}, Records: rec}, true},
		{"profile_only", Backend{Validation: BackendValidation{Status: StatusFailed, AnalysisMode: ModeProfileOnly}, Timing: &Timing{PercentageSum: 99.9}, Records: rec}, true},
		{"latency dict without percentages", Backend{Validation: BackendValidation{Status: StatusPassed, AnalysisMode: ModeLayerProfile}, Timing: &Timing{}, Records: rec}, true},
		{"a pasted table cut short", Backend{Validation: BackendValidation{Status: StatusFailed, AnalysisMode: ModeProfileOnly}, Timing: &Timing{PercentageSum: 10.9}, Records: rec}, false},
		{"no records", Backend{Validation: BackendValidation{Status: StatusPassed, AnalysisMode: ModeLayerProfile}, Timing: &Timing{}}, false},
		{"layer_only predicted", Backend{Validation: BackendValidation{Status: StatusPassed, AnalysisMode: ModeLayerOnly}, Layers: []Layer{{Name: "a"}}, Prediction: &Prediction{TotalMs: 1, LayerMs: []float64{1}}}, true},
		{"layer_only without prediction", Backend{Validation: BackendValidation{Status: StatusPassed, AnalysisMode: ModeLayerOnly}, Layers: []Layer{{Name: "a"}}}, false},
		{"unusable", Backend{Validation: BackendValidation{Status: StatusFailed, AnalysisMode: ModeUnusable}}, false},
	}
	for _, tc := range cases {
		if why := WhyNotComparable(&tc.b); (why == "") != tc.ok {
			t.Errorf("%s: WhyNotComparable = %q, want comparable %v", tc.name, why, tc.ok)
		}
	}
}
