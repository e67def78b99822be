package fsutil

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Temporary files and staging folders are named so that a later run can
// tell they are trtperf's and whether their writer is gone:
//
//	[.PREFIX].trtperf-KIND-PID.HOST-RANDOM
//
// KIND says what it is (tmp, staging, skill-staging...), PID and HOST
// name the process that made it: HOST is a hash of what makes a PID mean
// one process — the host name, the boot (Linux boot_id) and the PID
// namespace (/proc/self/ns/pid) — so two containers that share a host name
// and a folder but not a process table get different tags. CleanStale
// removes only entries it can prove are debris of a run like itself: the
// same HOST tag and a PID that no longer exists. Entries of other hosts,
// containers, boots or older trtperf versions are never touched (they stay
// hidden, as dot files). Interrupted runs (Ctrl-C, kill) remove their own
// entries through the signal handler that Track installs.

var (
	hostTag = func() string {
		h, _ := os.Hostname()
		f := fnv.New32a()
		f.Write([]byte(h))
		if runtime.GOOS == "linux" {
			if b, err := os.ReadFile("/proc/sys/kernel/random/boot_id"); err == nil {
				f.Write([]byte{0})
				f.Write(b)
			}
			if ns, err := os.Readlink("/proc/self/ns/pid"); err == nil {
				f.Write([]byte{0})
				f.Write([]byte(ns))
			}
		}
		return fmt.Sprintf("%08x", f.Sum32())
	}()
	tempRE   = regexp.MustCompile(`^(?:\..*)?\.trtperf-([a-z]+(?:-[a-z]+)*)-([0-9]+)\.([0-9a-f]{8})-[0-9]+$`)
	legacyRE = regexp.MustCompile(`^\.trtperf-(?:staging|skill-staging|skill-old|suite-staging)-[0-9]+$`)
)

// TempPattern is the os.CreateTemp / os.MkdirTemp pattern of a temporary
// entry of the given kind; prefix (may be "") keeps e.g. the output's name
// visible in the temp file's.
func TempPattern(prefix, kind string) string {
	p := ".trtperf-" + kind + "-" + strconv.Itoa(os.Getpid()) + "." + hostTag + "-*"
	if prefix != "" {
		p = "." + prefix + p
	}
	return p
}

// IsTempName reports whether name is a trtperf temporary entry.
func IsTempName(name string) bool { return tempRE.MatchString(name) || legacyRE.MatchString(name) }

// CleanStale removes the trtperf temporary entries in dir that a run with
// this process's HOST tag made and whose process has died (see the naming
// above), and returns their paths. Entries of running processes, of other
// hosts, containers or boots, of older trtperf versions, and anything else
// in dir are left alone: their owner cannot be proven gone.
func CleanStale(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if e.Type()&fs.ModeSymlink != 0 {
			continue
		}
		m := tempRE.FindStringSubmatch(name)
		if m == nil || m[3] != hostTag {
			continue
		}
		pid, err := strconv.Atoi(m[2])
		if err != nil || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		p := dir + string(os.PathSeparator) + name
		if err := os.RemoveAll(p); err == nil {
			removed = append(removed, p)
		}
	}
	return removed
}

// processAlive reports whether process pid exists on this host. Where that
// cannot be asked (Windows), it says yes and the age rule applies.
func processAlive(pid int) bool {
	if runtime.GOOS == "windows" {
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// MkdirTemp cleans stale entries in dir, then creates a temporary folder of
// the given kind there and tracks it (see Track).
func MkdirTemp(dir, kind string) (string, error) {
	CleanStale(dir)
	p, err := os.MkdirTemp(dir, TempPattern("", kind))
	if err != nil {
		return "", err
	}
	Track(p)
	return p, nil
}

// CreateTemp cleans stale entries in dir, then creates a temporary file
// named after prefix there, readable and writable only by the owner, and
// tracks it (see Track).
func CreateTemp(dir, prefix, kind string) (*os.File, error) {
	return CreateTempMode(dir, prefix, kind, 0o600)
}

// CreateTempMode is CreateTemp with the permission bits perm, which the
// process's umask reduces as for any new file (0o666 gives what a shell
// redirection would create).
func CreateTempMode(dir, prefix, kind string, perm fs.FileMode) (*os.File, error) {
	CleanStale(dir)
	pattern := TempPattern(prefix, kind)
	for try := 0; ; try++ {
		name := filepath.Join(dir, strings.Replace(pattern, "*", strconv.FormatUint(uint64(rand.Uint32()), 10), 1))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if err == nil {
			Track(f.Name())
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) || try == 100 {
			return nil, err
		}
	}
}

var tracked struct {
	sync.Mutex
	paths   map[string]bool
	handler sync.Once
}

// Track records path (a temporary file or folder this process owns) for
// removal if the process is interrupted (SIGINT, SIGTERM, SIGHUP): the
// handler removes every tracked path, then lets the signal end the process
// as it would have. Untrack (or Discard) it once it is renamed into place
// or removed.
func Track(path string) {
	tracked.handler.Do(func() {
		c := make(chan os.Signal, 1)
		signal.Notify(c, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		go func() {
			sig := <-c
			tracked.Lock() // held until exit: nothing is tracked anew
			for p := range tracked.paths {
				os.RemoveAll(p)
			}
			signal.Reset()
			if p, err := os.FindProcess(os.Getpid()); err == nil && p.Signal(sig) == nil {
				time.Sleep(time.Second)
			}
			os.Exit(1)
		}()
	})
	tracked.Lock()
	defer tracked.Unlock()
	if tracked.paths == nil {
		tracked.paths = map[string]bool{}
	}
	tracked.paths[path] = true
}

// Untrack forgets path (it was renamed into place).
func Untrack(path string) {
	tracked.Lock()
	defer tracked.Unlock()
	delete(tracked.paths, path)
}

// Discard removes a tracked temporary path and forgets it.
func Discard(path string) {
	if path == "" {
		return
	}
	os.RemoveAll(path)
	Untrack(path)
}
