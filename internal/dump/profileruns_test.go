package dump

import "testing"

func TestProfileRunsOf(t *testing.T) {
	doc := func(n, ms string) string {
		return `[{"count":` + n + `},{"name":"conv1","timeMs":1,"averageMs":` + ms + `,"percentage":100}]`
	}
	data := []byte(doc("10", "0.5") + "\n" + doc("20", "1.5") + doc("30", "2.5"))
	runs := ProfileRunsOf(data)
	if len(runs) != 3 {
		t.Fatalf("%d runs, want 3", len(runs))
	}
	for i, want := range []float64{0.5, 1.5, 2.5} {
		if got := runs[i].Records[0].AverageMs; got != want {
			t.Errorf("run %d averageMs %v, want %v", i+1, got, want)
		}
	}
	// A third document that does not parse ends the list after the second.
	if runs := ProfileRunsOf([]byte(doc("10", "0.5") + doc("20", "1.5") + `[{"count":1},{"name":"x","timeMs":"slow"}]`)); len(runs) != 2 {
		t.Errorf("broken third document: %d runs, want 2", len(runs))
	}
	if runs := ProfileRunsOf([]byte(doc("10", "0.5"))); len(runs) != 1 {
		t.Errorf("one document: %d runs, want 1", len(runs))
	}
}
