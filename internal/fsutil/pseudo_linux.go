//go:build linux

package fsutil

import "syscall"

// pseudoFS names the kernel file systems whose "regular" files are not
// data at rest: /proc/kmsg blocks and drains the kernel log, other files
// report size 0 and produce text on every read, some never end.
var pseudoFS = map[int64]string{
	0x9fa0:     "/proc",
	0x62656572: "/sys",
	0x64626720: "debugfs",
	0x74726163: "tracefs",
	0x73636673: "securityfs",
	0x62656570: "configfs",
	0x27e0eb:   "cgroup",
	0x63677270: "cgroup2",
	0xcafe4a11: "bpf",
	0x6165676c: "pstore",
	0xde5e81e4: "efivarfs",
}

// pseudoFile names the kernel file system path is on ("" for a real
// one). It stats the file system only: it never opens path.
func pseudoFile(path string) string {
	var st syscall.Statfs_t
	if syscall.Statfs(path, &st) != nil {
		return ""
	}
	return pseudoFS[int64(st.Type)]
}
