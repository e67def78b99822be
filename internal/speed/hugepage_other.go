//go:build !linux

package speed

import "unsafe"

func adviseBytes(p unsafe.Pointer, n uintptr) {}

func available() bool { return false }

func adviseRange(p, n uintptr) {}
