package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/golden"
)

// smallGolden is the contract package's small document: two backends, fp16
// passed and int8 failed (a cycle).
const smallGolden = "../contract/testdata/small.golden.json"

func runValidateCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestValidateCommand(t *testing.T) {
	doc, err := golden.ReadJSON(smallGolden) // pretty-printed: read back compact
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	valid := write("valid.json", doc)
	// A required field removed (schema), a status flipped (semantic).
	noPct := write("nopct.json", bytes.Replace(doc, []byte(`"percentage":62.5,"tags"`), []byte(`"tags"`), 1))
	flipped := write("flipped.json", bytes.Replace(doc, []byte(`"status":"failed","analysis_mode":"unusable"`), []byte(`"status":"passed","analysis_mode":"unusable"`), 1))
	notJSON := write("text.json", []byte("this is not json"))
	var many bytes.Buffer // more than maxListed problems
	many.WriteString(`{"results":[`)
	for i := range 60 {
		if i > 0 {
			many.WriteByte(',')
		}
		many.WriteString(`{"x":1}`)
	}
	many.WriteString(`]}`)
	manyPath := write("many.json", many.Bytes())

	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		want     []string
		wantNot  []string
		stderrRe string
	}{
		{"valid", []string{"validate", valid}, 0, []string{"SCHEMA PASS\n", "SEMANTIC PASS\n"}, []string{"FAIL"}, ""},
		{"require passed", []string{"validate", valid, "--require-passed"}, 1,
			[]string{"SCHEMA PASS\n", "SEMANTIC PASS\n", "REQUIRE-PASSED FAIL: backend int8 is failed: the graph has a cycle"}, nil, ""},
		{"field removed", []string{"validate", noPct}, 1,
			[]string{"SCHEMA FAIL\n", "  /results/0/records/2/percentage: required property missing\n", "SEMANTIC FAIL\n"}, nil, ""},
		{"status flipped", []string{"validate", flipped}, 1,
			[]string{"SCHEMA PASS\n", "SEMANTIC FAIL\n", "  /results/1/validation/status: ", "  /validation/passed_count: "}, nil, ""},
		{"quiet", []string{"validate", flipped, "--quiet"}, 1, []string{"SCHEMA PASS\nSEMANTIC FAIL\n"}, []string{"/validation"}, ""},
		{"not json", []string{"validate", notJSON}, 1, []string{"SCHEMA FAIL\n", "  (document): not valid JSON", "SEMANTIC FAIL\n"}, nil, ""},
		{"many problems capped", []string{"validate", manyPath}, 1, []string{"  ... and "}, nil, ""},
		{"missing file", []string{"validate", filepath.Join(dir, "nope.json")}, 2, nil, []string{"SCHEMA"}, "error: read .*nope.json.*check the path"},
		{"no args", []string{"validate"}, 2, nil, nil, "error: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := runValidateCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(out, w) {
					t.Errorf("stdout has %q:\n%s", w, out)
				}
			}
			if tc.stderrRe != "" && !regexp.MustCompile(tc.stderrRe).MatchString(stderr) {
				t.Errorf("stderr %q does not match %q", stderr, tc.stderrRe)
			}
			if tc.stderrRe == "" && stderr != "" {
				t.Errorf("unexpected stderr %q", stderr)
			}
			schemaPart, semanticPart, _ := strings.Cut(out, "SEMANTIC")
			for _, part := range []string{schemaPart, semanticPart} {
				if n := strings.Count(part, "\n  /"); n > maxListed {
					t.Errorf("%d problems listed in one check, cap is %d", n, maxListed)
				}
			}
		})
	}
}
