// Package ruledoc explains the diagnosis rules: for each finding id, what
// it means, how its price (the time at stake) is estimated and what
// evidence would refute it. `trtperf explain` renders it for people, and
// SKILL.md carries the same text as a generated section, so an agent reads
// exactly what the command prints.
//
// The text is data: the rule table of internal/findings owns ids, titles,
// meanings, prices and refutations (findings.RuleDocs); this package only
// renders it.
package ruledoc

import (
	"fmt"
	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/findings"
	"io"
	"slices"
	"strings"
)

// Doc explains one finding rule.
type Doc struct {
	ID      string // the finding's id in issues[].id
	Title   string // the finding's generic title
	Meaning string // what the finding says about the engine
	Price   string // how the time at stake is estimated
	Refuted string // evidence that would show the finding wrong
}

// Pricing says how every finding is priced and ranked; each Doc's Price
// adds what is specific to its rule.
var Pricing = fmt.Sprintf(`A finding is a cause with a price. It owns layers (issues[].layers): no layer belongs to two findings of a backend, so recoverable times add up. Its price, issues[].recoverable_ms (range recoverable_low_ms..recoverable_high_ms), is the time a fix gives back per inference on the backend's reference latency (diagnosis.reference_ms: the measured GPU compute time when the folder has one, else the profiled layer sum): owned layer time × diagnosis.profile_scale × the rule's factor (price_basis "estimate", price_factor says how), a measured difference to a sibling build of the same model (price_basis "sibling_measured", which always wins), or the cost model (price_basis "model": internal/costmodel, a roofline per layer with efficiencies calibrated once on a measured corpus; the owned layers' predicted time as built minus under the change the finding proposes, on the GPU of backend.prediction, device-aware — no tensor-core price for a precision the GPU has no tensor cores for, FP8 only from compute capability 8.9; with a profile as a fraction of the owned profiled time, and only when the model's time of those layers is within 2× of the profile; removed or fused layers give back the rule's band of their time; the range is ± prediction.error_pct, the model's median error for such a GPU: measured on the corpus where the files name the GPU, wider on an assumed default, and widest on an architecture the fit did not see, as prediction.notes then says). A layer_only backend (layer info, no profile) is diagnosed on the model's PREDICTED layer times (backend.prediction.layer_ms; diagnosis.reference_source "predicted"): every rule the model has a change for is priced by it. recoverable_share is that price as a percent of the reference; issues[].share is the owned layers' share of the profiled layer sum. Findings are ranked by %s. A candidate worth under %g %% of the reference is not scored (run-to-run noise is 1–3 %%, so re-measuring could not confirm it): it still owns its layers and is listed in the overview item minor_items. Descriptions of where the time goes (largest layers, dominant type, Myelin regions, small kernels, profiling overhead) are in the unscored overview, not findings. A profile_only backend (a profile without usable layer info: a TensorRT 7 run, names-only layer info, a pasted table) is diagnosed from its record names, the kinds guessed from them (records tagged type_guessed_from_name plus the tags of the guessed kind, so a guessed reformat, Q/DQ or cast counts as a conversion): the causes the names show are findings of the rules above that diagnose the same cause with layer info (decomposed_norm: an InstanceNormalization plugin with the scale, cast and reformat records of its scope; input_quantize and input_prologue: quantize, layout, pad, reformat and cast records before the first computation, and explicit pads anywhere; qdq_placement: standalone Q/DQ records; unfused_epilogue: activations and casts right after a convolution or GEMM; attention_unfused: Softmax and MatMul records of one attention scope; reformat_overhead: the other reformat records), each priced on its records' measured time × that rule's band (price_basis "estimate_guessed_kinds"; qdq_placement's band is its standalone Q/DQ part's) and owning records, not layers (issues[].records; no record in two findings; parts split them by guessed kind). A partial table (its rows' percentages sum under %g %%) is priced on the engine's time the rows' shares imply, and its row order is not read as the graph input's. DLA subgraph records and the GPU's hand-over and wait records are DLA time, never priced: the overview item profile_dla says what ran where. A profile_only backend takes no sibling price (its precisions are unknown, so a faster sibling's gain cannot be told from an accuracy trade-off), but a faster sibling still bounds its qdq_placement estimate from above. A trtexec console log is read like any dump: a log alone is a backend; its --dumpProfile table is the profile (profile_only, or layer_profile with layer info beside it or engine layer information lines in the log) and a validation message gives the table's lines and whether it may be partial (no header, no Total row, the share of the time the rows read make). What only a log says is in the overview, each item quoting its log lines, problems first: log_host_device_copies (host latency minus GPU compute), log_input_bytes (input shapes × element size against PCIe bandwidth), log_int8_without_fp16, log_enqueue_vs_compute (trtexec's enqueue-bound warning judged against how busy the GPU was), log_plugin_fp32_formats, log_autotune_precisions (layers whose FP16/INT8 tactics were timed slower than FP32), log_instancenorm_import, log_layer_precision_change, log_builder_warnings, log_unfused_quantize_layers, log_requested_evidence_missing (what the run's command asked trtexec for — the --dumpProfile table, --export* files — that the paste lacks, and, for the only build of a folder, that no other build's log is there); then log_profile_table (column meanings, rows read, partial) and log_measured / log_measured_compared (the engine's own GPU compute time, and what an application's timer adds to it). Two tables of which one is partial (a pasted fragment, its rows under 90 %% of its time) are never compared as engines: row_comparisons compares only the rows both hold (the same name, or the one row of each naming an operation), one by one, and each side's overview item rows_compared says so.`, findings.ScoreRule(), findings.MinFindingPct(), contract.MinWholeProfilePct)

// Docs returns the documentation of every rule, sorted by id.
func Docs() []Doc {
	var out []Doc
	for _, r := range findings.RuleDocs() {
		out = append(out, Doc{ID: r.ID, Title: r.Title, Meaning: r.Meaning, Price: r.Price, Refuted: r.Refuted})
	}
	slices.SortFunc(out, func(a, b Doc) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Lookup returns the doc of id.
func Lookup(docs []Doc, id string) (Doc, bool) {
	for _, d := range docs {
		if d.ID == id {
			return d, true
		}
	}
	return Doc{}, false
}

// WriteList prints one line per rule and how findings are priced.
func WriteList(w io.Writer, docs []Doc) {
	width := 0
	for _, d := range docs {
		width = max(width, len(d.ID))
	}
	fmt.Fprintf(w, "%d diagnosis rules (trtperf explain ID for one):\n\n", len(docs))
	for _, d := range docs {
		fmt.Fprintf(w, "  %-*s  %s\n", width, d.ID, d.Title)
	}
	fmt.Fprintf(w, "\nHow findings are priced:\n%s\n", wrap(Pricing, 78, "  "))
}

// WriteText prints one rule's doc for a terminal.
func WriteText(w io.Writer, d Doc) {
	fmt.Fprintf(w, "%s: %s\n\n", d.ID, d.Title)
	for _, s := range []struct{ head, text string }{
		{"What it means", d.Meaning},
		{"How it is priced", d.Price},
		{"What would refute it", d.Refuted},
	} {
		fmt.Fprintf(w, "%s:\n%s\n\n", s.head, wrap(s.text, 78, "  "))
	}
	fmt.Fprintf(w, "Pricing common to every finding:\n%s\n", wrap(Pricing, 78, "  "))
}

// Markdown is the SKILL.md section: every rule, with the common pricing.
func Markdown(docs []Doc) string {
	var b strings.Builder
	b.WriteString("How every finding is priced: " + Pricing + "\n")
	for _, d := range docs {
		fmt.Fprintf(&b, "\n- **`%s`** — %s. %s\n  *Price:* %s\n  *Refuted by:* %s\n", d.ID, d.Title, d.Meaning, d.Price, d.Refuted)
	}
	return b.String()
}

// wrap breaks s into lines of at most width columns, each indented.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	col := 0
	for i, word := range strings.Fields(s) {
		switch {
		case i == 0:
			b.WriteString(indent)
			col = len(indent)
		case col+1+len(word) > width:
			b.WriteString("\n" + indent)
			col = len(indent)
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += len(word)
	}
	return b.String()
}
