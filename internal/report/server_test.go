package report

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trtperf/trtperf/internal/report/reporttest"
)

func TestServer(t *testing.T) {
	root := t.TempDir()
	d := reporttest.Synthetic(reporttest.Options{Layers: 5})
	dir, err := Publisher{}.Publish(d, encode(t, d), []byte("# md"), Target{ReportDir: filepath.Join(root, "report")})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "secret.txt"), []byte("secret"), 0o644)
	os.Symlink(filepath.Join(root, "secret.txt"), filepath.Join(dir, "link.txt"))
	os.Symlink(root, filepath.Join(dir, "up"))
	h, err := NewServer(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		method, path string
		code         int
		ctype        string
		body         string
	}{
		{"GET", "/", 200, "text/html; charset=utf-8", "Content-Security-Policy"},
		{"GET", "/index.html", 200, "text/html; charset=utf-8", "<title>"},
		{"GET", "/data.js", 200, "text/javascript; charset=utf-8", "window.TRTPERF_DATA"},
		{"GET", "/assets/app.js", 200, "text/javascript; charset=utf-8", ""},
		{"GET", "/assets/app.css", 200, "text/css; charset=utf-8", ""},
		{"GET", "/analyze-data.json", 200, "application/json", `"schema_version"`},
		{"GET", "/analyze.md", 200, "text/markdown; charset=utf-8", "# md"},
		{"HEAD", "/data.js", 200, "text/javascript; charset=utf-8", ""},
		{"GET", "/assets/", 404, "", ""},
		{"GET", "/licenses", 404, "", ""},
		{"GET", "/../secret.txt", 404, "", ""},
		{"GET", "/%2e%2e/secret.txt", 404, "", ""},
		{"GET", "/assets/../../secret.txt", 404, "", ""},
		{"GET", "/link.txt", 404, "", ""},
		{"GET", "/up/secret.txt", 404, "", ""},
		{"GET", "/nope.js", 404, "", ""},
		{"POST", "/index.html", 405, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, "http://127.0.0.1"+tt.path, nil)
			req.URL.Path = strings.ReplaceAll(req.URL.Path, "%2e", ".")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.code {
				t.Fatalf("status %d, want %d (body %q)", rec.Code, tt.code, rec.Body.String())
			}
			if got := rec.Header().Get("Cache-Control"); got != "no-store" {
				t.Errorf("Cache-Control %q", got)
			}
			if strings.Contains(rec.Body.String(), "secret") {
				t.Errorf("served a file outside the report")
			}
			if tt.code != 200 {
				return
			}
			if got := rec.Header().Get("Content-Type"); got != tt.ctype {
				t.Errorf("Content-Type %q, want %q", got, tt.ctype)
			}
			if !strings.Contains(rec.Body.String(), tt.body) {
				t.Errorf("body lacks %q", tt.body)
			}
		})
	}
	if _, err := NewServer(filepath.Join(root, "missing")); err == nil {
		t.Error("NewServer of a missing folder succeeded")
	}
}

// TestServerRealHTTP checks raw request paths that clients would normalise.
func TestServerRealHTTP(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "secret.txt"), []byte("secret"), 0o644)
	dir := filepath.Join(root, "r")
	os.Mkdir(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("ok"), 0o644)
	h, _ := NewServer(dir)
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, raw := range []string{"/../secret.txt", "/..%2fsecret.txt", "/%2e%2e/secret.txt", "//../secret.txt"} {
		req, _ := http.NewRequest("GET", srv.URL, nil)
		req.URL.Opaque = raw
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 100)
		n, _ := resp.Body.Read(buf)
		resp.Body.Close()
		if strings.Contains(string(buf[:n]), "secret") {
			t.Errorf("%s served a file outside the report", raw)
		}
	}
}
