package analysis

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/trtperf/trtperf/internal/dump"
)

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// readError turns a parse or I/O error into a message with a stable code.
func readError(side, path string, err error) (code, text string) {
	var fe *dump.FormatError
	if errors.As(err, &fe) {
		return side + "_" + fe.Code, fmt.Sprintf("%s %s: %s", sideWords(side), filepath.Base(path), fe.Error())
	}
	return side + "_unreadable", fmt.Sprintf("%s %s cannot be read: %v; check the file exists and is readable", sideWords(side), filepath.Base(path), err)
}

func sideWords(side string) string {
	switch side {
	case sideLayerInfo:
		return "layer info"
	case "times":
		return "times file"
	case sideMeta:
		return "metadata"
	case sideLog:
		return "trtexec log"
	}
	return "profile"
}
