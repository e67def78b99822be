package dump

import (
	"bytes"
	"fmt"
	"github.com/trtperf/trtperf/internal/fsutil"
)

// Stable FormatError codes. The analysis turns them into validation message
// codes, so they never change meaning.
const (
	CodeMalformed    = "json_malformed"
	CodeConcatenated = "json_concatenated"
	CodeNotLayerInfo = "not_layer_info"
	CodeNotProfile   = "not_profile"
	CodeMissingField = "missing_field"
	CodeNonFinite    = "non_finite"
	CodeEmpty        = "empty"
)

// FormatError says why a file could not be read as a dump. Detail is a
// complete user-facing sentence that names the problem and the fix.
type FormatError struct {
	Code   string
	Detail string
	// Documents is the number of JSON documents found in the file when Code
	// is CodeConcatenated; 0 otherwise.
	Documents int
	// Offset is the byte offset of the problem (-1 when it has no position);
	// Line and Column are 1-based and 0 when there is no position.
	Offset int
	Line   int
	Column int
}

func (e *FormatError) Error() string { return e.Detail }

// scanError carries a *FormatError up the stack of the recursive decoder by
// panic; parse entry points recover it (and only it).
type scanError struct{ err *FormatError }

// position converts a byte offset into a 1-based line and column (columns
// count bytes). It runs only when an error is reported.
func position(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = off - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// errAt builds a positioned FormatError. what describes the problem; fix is
// appended as the advice.
func errAt(data []byte, off int, code, what, fix string) *FormatError {
	line, col := position(data, off)
	if hint := fsutil.EncodingHint(data[:min(len(data), 64)]); hint != "" {
		fix = hint[2:] // what the file is says more than how JSON breaks
	}
	return &FormatError{
		Code:   code,
		Detail: fmt.Sprintf("%s at line %d, column %d (byte %d); %s", what, line, col, off, fix),
		Offset: off,
		Line:   line,
		Column: col,
	}
}

// errPlain builds a FormatError without a position.
func errPlain(code, detail string) *FormatError {
	return &FormatError{Code: code, Detail: detail, Offset: -1}
}

const (
	fixMalformed = "the file is damaged or truncated: re-export it (trtexec --exportLayerInfo=F / --exportProfile=F) or repair the JSON"
	fixNonFinite = "JSON allows only finite numbers: re-export the file, or replace NaN/Infinity with a number or null"
)
