//go:build !unix

package fsutil

import "testing"

func testFIFOOutput(t *testing.T, dir string, write func(string) error) {}
