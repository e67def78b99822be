package fsutil

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestTempNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		temp bool
	}{
		{filepath.Base(TempPattern("", "staging")[:len(TempPattern("", "staging"))-1] + "123"), true},
		{strings.TrimSuffix(TempPattern("analyze-data.json", "tmp"), "*") + "99", true},
		{".trtperf-staging-4242.0badf00d-17", true},
		{".trtperf-staging-123456", true}, // named by an older trtperf
		{".trtperf-skill-old-77", true},
		{".trtperf-staging-x", false},
		{"trtperf-staging-1.0badf00d-1", false},
		{"report_bert_20240101_000000", false},
		{".trtperf-skill", false}, // the skill marker
	} {
		if got := IsTempName(tc.name); got != tc.temp {
			t.Errorf("IsTempName(%q) = %v, want %v", tc.name, got, tc.temp)
		}
	}
}

// deadPID returns the PID of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestCleanStale(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("process liveness is not asked on Windows")
	}
	dir := t.TempDir()
	dead := deadPID(t)
	mk := func(name string, age time.Duration, folder bool) string {
		p := filepath.Join(dir, name)
		if folder {
			os.MkdirAll(filepath.Join(p, "sub"), 0o755)
		} else {
			os.WriteFile(p, []byte("x"), 0o644)
		}
		old := time.Now().Add(-age)
		os.Chtimes(p, old, old)
		return p
	}
	gone := []string{
		mk(".trtperf-staging-"+strconv.Itoa(dead)+"."+hostTag+"-1", 0, true),       // its process died
		mk(".out.json.trtperf-tmp-"+strconv.Itoa(dead)+"."+hostTag+"-2", 0, false), // ditto, a temp file
	}
	// Nothing whose owner cannot be proven gone: a PID that is dead here
	// may be alive in another PID namespace (a container with the same
	// host name sharing the folder), on another host or before a reboot.
	kept := []string{
		mk(".trtperf-staging-"+strconv.Itoa(os.Getppid())+"."+hostTag+"-4", 0, true),       // alive
		mk(".trtperf-staging-"+strconv.Itoa(dead)+".0badf00d-5", time.Hour, true),          // another host or PID namespace
		mk(".out.json.trtperf-tmp-"+strconv.Itoa(dead)+".0badf00d-6", 48*time.Hour, false), // ditto, old
		mk(".trtperf-staging-555", 2*time.Hour, true),                                      // older trtperf
		mk(".out.json.tmp-12345", 2*time.Hour, false),                                      // older analyze --output
		mk("report_x_20240101_000000", 48*time.Hour, true),
		mk(".hidden", 48*time.Hour, false),
	}
	removed := CleanStale(dir)
	if len(removed) != len(gone) {
		t.Errorf("removed %q, want %q", removed, gone)
	}
	for _, p := range gone {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("stale %s kept", filepath.Base(p))
		}
	}
	for _, p := range kept {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s removed", filepath.Base(p))
		}
	}
}

func TestRemoveCreated(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b", "c")
	created, err := EnsureDir(deep)
	if err != nil {
		t.Fatal(err)
	}
	// Another run published into a/b meanwhile: a/b and a stay, c goes.
	os.WriteFile(filepath.Join(root, "a", "b", "report"), []byte("x"), 0o644)
	RemoveCreated(deep, created)
	if _, err := os.Stat(deep); err == nil {
		t.Error("empty created folder kept")
	}
	if _, err := os.Stat(filepath.Join(root, "a", "b", "report")); err != nil {
		t.Error("another run's content removed")
	}
	os.Remove(filepath.Join(root, "a", "b", "report"))
	RemoveCreated(filepath.Join(root, "a", "b"), created)
	if _, err := os.Stat(filepath.Join(root, "a")); err == nil {
		t.Error("empty created parents kept")
	}
	if _, err := os.Stat(root); err != nil {
		t.Error("a folder that existed before was removed")
	}
}

func TestCreateOutput(t *testing.T) {
	dir := t.TempDir()
	write := func(path string) error {
		o, err := CreateOutput(path)
		if err != nil {
			return err
		}
		o.WriteString("new")
		return o.Commit()
	}
	// A new file: 0644.
	p := filepath.Join(dir, "new.json")
	if err := write(p); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v", st.Mode().Perm())
	}
	// An existing private file keeps its mode; through a symlink too, and
	// the symlink stays.
	priv := filepath.Join(dir, "priv.json")
	os.WriteFile(priv, []byte("old"), 0o600)
	os.Chmod(priv, 0o600)
	link := filepath.Join(dir, "link.json")
	os.Symlink("priv.json", link)
	for _, path := range []string{priv, link} {
		if err := write(path); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(priv)
		if b, _ := os.ReadFile(priv); string(b) != "new" || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: content %q mode %v", path, b, st.Mode().Perm())
		}
		os.WriteFile(priv, []byte("old"), 0o600)
	}
	if st, _ := os.Lstat(link); st.Mode()&fs.ModeSymlink == 0 {
		t.Error("symlink replaced by a file")
	}
	// Abort keeps the old file and leaves no temp file.
	o, err := CreateOutput(priv)
	if err != nil {
		t.Fatal(err)
	}
	o.WriteString("partial")
	o.Abort()
	if b, _ := os.ReadFile(priv); string(b) != "old" {
		t.Errorf("aborted output changed the file: %q", b)
	}
	// Refused: a folder, a dangling symlink.
	os.Symlink("missing", filepath.Join(dir, "dangling"))
	for _, bad := range []string{dir, filepath.Join(dir, "dangling")} {
		if _, err := CreateOutput(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	testFIFOOutput(t, dir, write)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if IsTempName(e.Name()) {
			t.Errorf("temp file left: %s", e.Name())
		}
	}
}
