//go:build unix

package report

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trtperf/trtperf/internal/report/reporttest"
)

// TestServerHostile: Host header (DNS rebinding), methods, dotfiles and
// special files, and the security headers on every response.
func TestServerHostile(t *testing.T) {
	root := t.TempDir()
	d := reporttest.Synthetic(reporttest.Options{Layers: 3})
	dir, err := Publisher{}.Publish(d, encode(t, d), nil, Target{ReportDir: filepath.Join(root, "report")})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".env"), []byte("secret"), 0o644)
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("secret"), 0o644)
	os.WriteFile(filepath.Join(dir, "assets", ".trtperf-tmp-1.00000000-1"), []byte("secret"), 0o644)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := NewServer(dir, "192.0.2.7", "myhost")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		method, host, path string
		code               int
	}{
		{"GET", "127.0.0.1:8080", "/", 200},
		{"GET", "127.0.0.2", "/", 200},
		{"GET", "localhost:1", "/index.html", 200},
		{"GET", "LOCALHOST", "/index.html", 200},
		{"GET", "[::1]:8080", "/", 200},
		{"GET", "192.0.2.7:80", "/", 200}, // the bound address (--allow-remote)
		{"GET", "myhost:80", "/", 200},
		{"GET", "evil.example:8080", "/", 421}, // DNS rebinding
		{"GET", "evil.example", "/data.js", 421},
		{"GET", "127.0.0.1.evil.example", "/", 421},
		{"GET", "", "/", 421},
		{"GET", "10.0.0.1", "/", 421},
		{"PUT", "127.0.0.1", "/index.html", 405},
		{"DELETE", "127.0.0.1", "/index.html", 405},
		{"OPTIONS", "127.0.0.1", "/", 405},
		{"PATCH", "127.0.0.1", "/", 405},
		{"TRACE", "127.0.0.1", "/", 405},
		{"GET", "127.0.0.1", "/.env", 404},
		{"GET", "127.0.0.1", "/.git/config", 404},
		{"GET", "127.0.0.1", "/assets/.trtperf-tmp-1.00000000-1", 404},
		{"GET", "127.0.0.1", "/pipe.js", 404},
		{"HEAD", "127.0.0.1", "/pipe.js", 404},
	} {
		t.Run(tt.method+" "+tt.host+tt.path, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, "http://x"+tt.path, nil)
			req.Host = tt.host
			rec := httptest.NewRecorder()
			done := make(chan struct{})
			go func() { h.ServeHTTP(rec, req); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("request hangs")
			}
			if rec.Code != tt.code {
				t.Fatalf("status %d, want %d", rec.Code, tt.code)
			}
			hd := rec.Header()
			if hd.Get("Content-Security-Policy") != ServeCSP || hd.Get("X-Content-Type-Options") != "nosniff" || hd.Get("Cache-Control") != "no-store" {
				t.Errorf("headers %v", hd)
			}
			if rec.Code != 200 && rec.Body.Len() > 0 && strings.Contains(rec.Body.String(), "secret") {
				t.Error("served a secret")
			}
			if tt.code == 405 && hd.Get("Allow") != "GET, HEAD" {
				t.Errorf("Allow %q", hd.Get("Allow"))
			}
		})
	}
}
