package fsutil

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Temporary files and staging folders are named so that a later run can
// tell they are trtperf's and whether their writer is gone:
//
//	[.PREFIX].trtperf-KIND-PID.HOST-RANDOM
//
// KIND says what it is (tmp, staging, skill-staging...), PID and HOST (a
// hash of the host name) name the process that made it. CleanStale removes
// such an entry when its process on this host has died, or when it is
// older than StaleAfter whoever made it (a run on another host sharing the
// folder). Interrupted runs (Ctrl-C, kill) remove their own entries through
// the signal handler that Track installs.

// StaleAfter is the age past which any trtperf temporary entry is debris.
const StaleAfter = 24 * time.Hour

// legacyStaleAfter is the age past which an entry named by an older
// trtperf (no PID in the name) is debris.
const legacyStaleAfter = time.Hour

var (
	hostTag = func() string {
		h, _ := os.Hostname()
		f := fnv.New32a()
		f.Write([]byte(h))
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

// CleanStale removes the trtperf temporary entries in dir whose writer is
// gone (see the naming above) and returns their paths. Entries of running
// processes and anything else in dir are left alone. legacy names an
// output file whose temp files an older trtperf named ".NAME.tmp-RANDOM";
// those are removed past an hour.
func CleanStale(dir, legacy string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var legacyRE2 *regexp.Regexp
	if legacy != "" {
		legacyRE2 = regexp.MustCompile(`^\.` + regexp.QuoteMeta(legacy) + `\.tmp-[0-9]+$`)
	}
	now := time.Now()
	var removed []string
	for _, e := range entries {
		name := e.Name()
		info, err := e.Info()
		if err != nil || info.Mode()&fs.ModeSymlink != 0 {
			continue
		}
		age := now.Sub(info.ModTime())
		stale := false
		if m := tempRE.FindStringSubmatch(name); m != nil {
			pid, _ := strconv.Atoi(m[2])
			mine := pid == os.Getpid() && m[3] == hostTag
			stale = !mine && (age > StaleAfter || m[3] == hostTag && !processAlive(pid))
		} else if legacyRE.MatchString(name) || legacyRE2 != nil && legacyRE2.MatchString(name) {
			stale = age > legacyStaleAfter
		}
		if !stale {
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
	CleanStale(dir, "")
	p, err := os.MkdirTemp(dir, TempPattern("", kind))
	if err != nil {
		return "", err
	}
	Track(p)
	return p, nil
}

// CreateTemp cleans stale entries in dir, then creates a temporary file
// named after prefix there and tracks it (see Track).
func CreateTemp(dir, prefix, kind string) (*os.File, error) {
	CleanStale(dir, prefix)
	f, err := os.CreateTemp(dir, TempPattern(prefix, kind))
	if err != nil {
		return nil, err
	}
	Track(f.Name())
	return f, nil
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
