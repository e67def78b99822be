package analysis

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/discover"
	"github.com/trtperf/trtperf/internal/load"
)

func TestIdentify(t *testing.T) {
	root := t.TempDir()
	config := filepath.Join(root, "config.json")
	if err := os.WriteFile(config, []byte(`{"_name_or_path": "meta-llama/Llama-3.1-8B", "model_type": "llama", "hidden_size": 4096}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		scope      discover.Scope
		flag       string
		want       string
		confidence string
		components []string
	}{
		{"flag wins over everything", discover.Scope{Folder: "/x/resnet50-fp16", ConfigFiles: []string{config}}, "my-model", "my-model", contract.ConfidenceHigh, []string{}},
		{"config wins over folder", discover.Scope{Folder: "/x/resnet50-fp16", ConfigFiles: []string{config}}, "", "meta-llama/Llama-3.1-8B", contract.ConfidenceHigh, []string{}},
		{"folder without build words", discover.Scope{Folder: "/x/trex-resnet18-a100-fp32-fp16"}, "", "resnet18", contract.ConfidenceMedium, []string{}},
		{"diffusion folder", discover.Scope{Folder: "/x/controlnet-sd15-trt86-fp16"}, "", "controlnet-sd15", contract.ConfidenceMedium, []string{}},
		{"component folder is named by its parent", discover.Scope{Folder: "/x/sdxl-base/unet"}, "", "sdxl-base", contract.ConfidenceMedium, []string{"unet"}},
		{"unknown word stays unnamed", discover.Scope{Folder: "/x/experiment7"}, "", "", contract.ConfidenceLow, []string{}},
	}
	for _, generic := range []string{"tmp", "raw", "data", "out", "results", "arr", "output", "dumps"} {
		tests = append(tests, struct {
			name       string
			scope      discover.Scope
			flag       string
			want       string
			confidence string
			components []string
		}{"generic folder " + generic, discover.Scope{Folder: "/x/" + generic}, "", "", contract.ConfidenceLow, []string{}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := identify(&tt.scope, load.Configs(tt.scope.ConfigFiles), tt.flag, "")
			if id.name != tt.want || id.confidence != tt.confidence {
				t.Errorf("name %q (%s), want %q (%s); evidence %+v", id.name, id.confidence, tt.want, tt.confidence, id.evidence)
			}
			if len(id.components) != len(tt.components) || (len(tt.components) > 0 && id.components[0] != tt.components[0]) {
				t.Errorf("components %v, want %v", id.components, tt.components)
			}
		})
	}
}
