package cli

import (
	"net"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/trtperf/trtperf/internal/report"
)

func TestServeRefusesRemoteWithoutFlag(t *testing.T) {
	tmp := t.TempDir()
	f, _ := analyzeDataFile(t, tmp)
	dir := filepath.Join(tmp, "r")
	if code, _, e := run(t, "package", "--analyze-data", f, "--report-dir", dir); code != 0 {
		t.Fatal(e)
	}
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", ":0"} {
		code, out, e := run(t, "serve", dir, "--addr", addr)
		wantError(t, code, e, 2, "not a loopback address", "--allow-remote")
		if out != "" {
			t.Errorf("%s: stdout %q", addr, out)
		}
	}
}

// TestServeTimeouts: serve's server drops a client that opens a connection
// and sends nothing, and one that goes idle.
func TestServeTimeouts(t *testing.T) {
	t.Parallel() // its dependencies are its own (deps), not swapped globals
	srv := newHTTPServer(nil, defaultServeTimeouts)
	if srv.ReadHeaderTimeout == 0 || srv.ReadTimeout == 0 || srv.WriteTimeout == 0 || srv.IdleTimeout == 0 || srv.MaxHeaderBytes == 0 {
		t.Fatalf("serve has an unbounded limit: %+v", srv)
	}
	short := defaultServeTimeouts
	short.header, short.read, short.idle = 200*time.Millisecond, 200*time.Millisecond, 200*time.Millisecond
	dir := t.TempDir()
	h, err := report.NewServer(dir)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(h)
	ts.Config = newHTTPServer(h, short)
	ts.Start()
	defer ts.Close()
	for _, send := range []string{"", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"} { // nothing; headers never finished
		c, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(send))
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		buf := make([]byte, 512)
		start := time.Now()
		for {
			if _, err := c.Read(buf); err != nil {
				break
			}
		}
		if el := time.Since(start); el > 3*time.Second {
			t.Errorf("sent %q: connection kept for %v", send, el)
		}
		c.Close()
	}
}
