//go:build !linux

package hugepage

import "unsafe"

func advise(p unsafe.Pointer, n uintptr) {}

func available() bool { return false }

func adviseRange(p, n uintptr) {}
