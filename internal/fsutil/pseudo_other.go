//go:build !linux

package fsutil

// pseudoFile: only Linux is known to mount kernel file systems whose files
// look regular (/proc, /sys); elsewhere none is recognised.
func pseudoFile(string) string { return "" }
