package cli

import (
	"fmt"
	"strings"
)

// dataPairs collects repeatable `--data LAYERS [PROFILE]` flags. pflag has
// no two-valued flags, so expandDataArgs rewrites the optional second path
// as a hidden --data-profile flag that completes the pair before it.
type dataPairs struct{ pairs [][]string }

func (d *dataPairs) String() string {
	parts := make([]string, len(d.pairs))
	for i, p := range d.pairs {
		parts[i] = strings.Join(p, " ")
	}
	return strings.Join(parts, ", ")
}
func (d *dataPairs) Type() string { return "LAYERS [PROFILE]" }
func (d *dataPairs) Set(v string) error {
	d.pairs = append(d.pairs, []string{v})
	return nil
}

// profileOfLast is the hidden --data-profile flag's value.
type profileOfLast struct{ d *dataPairs }

func (p profileOfLast) String() string { return "" }
func (p profileOfLast) Type() string   { return "PROFILE" }
func (p profileOfLast) Set(v string) error {
	if len(p.d.pairs) == 0 {
		return fmt.Errorf("a profile path needs a --data LAYERS before it")
	}
	p.d.pairs[len(p.d.pairs)-1] = append(p.d.pairs[len(p.d.pairs)-1], v)
	return nil
}

const dataProfileFlag = "--data-profile"

// expandDataArgs rewrites `--data L P` as `--data L --data-profile P` and
// rejects a third path, which is always a mistake (one --data per backend).
func expandDataArgs(args []string) ([]string, error) {
	out := make([]string, 0, len(args)+2)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...), nil
		}
		if a != "--data" && !strings.HasPrefix(a, "--data=") {
			out = append(out, a)
			continue
		}
		paths := []string{}
		if v, ok := strings.CutPrefix(a, "--data="); ok {
			paths = append(paths, v)
		} else if i+1 < len(args) {
			i++
			paths = append(paths, args[i])
		} else {
			return nil, fmt.Errorf("--data needs a layer-info path: --data LAYERS [PROFILE]")
		}
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			i++
			paths = append(paths, args[i])
		}
		if len(paths) > 2 {
			return nil, fmt.Errorf("--data takes one or two paths (LAYERS [PROFILE]), got %d: %s; repeat --data once per backend", len(paths), strings.Join(paths, " "))
		}
		out = append(out, "--data", paths[0])
		if len(paths) == 2 {
			out = append(out, dataProfileFlag, paths[1])
		}
	}
	return out, nil
}
