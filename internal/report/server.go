package report

import (
	"io/fs"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"strings"
	"syscall"
)

// contentTypes pins the types a report uses, so they do not depend on the
// host's mime database.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".json": "application/json",
	".md":   "text/markdown; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".png":  "image/png",
	".svg":  "image/svg+xml",
}

// ServeCSP is the Content-Security-Policy header of every response: the
// report pages carry a stricter one of their own (index.html's meta); the
// suite overview needs its inline style sheet. No page may be framed.
const ServeCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// NewServer serves the report folder dir and nothing else: paths are
// resolved inside an os.Root (so neither `..` nor a symlink can leave the
// folder), folders are never listed ("/" serves index.html), dotfiles and
// anything but regular files (FIFOs, devices) are not served and never
// opened in a way that could block, only GET and HEAD are answered, and
// every response says Cache-Control: no-store and carries ServeCSP and
// nosniff.
//
// Requests must name the server by a loopback host (127.0.0.1, ::1,
// localhost) or one of hosts (the address it listens on, when that is not
// loopback): another Host header means a page on some other site reached
// the server through DNS rebinding, and gets 421 Misdirected Request.
func NewServer(dir string, hosts ...string) (http.Handler, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	allowed := map[string]bool{"localhost": true}
	for _, h := range hosts {
		allowed[strings.ToLower(strings.Trim(h, "[]"))] = true
	}
	return &server{root: root, hosts: allowed}, nil
}

type server struct {
	root  *os.Root
	hosts map[string]bool
}

// hostAllowed reports whether the request's Host names this server.
func (s *server) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	return s.hosts[host]
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", ServeCSP)
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	if !s.hostAllowed(r.Host) {
		http.Error(w, "misdirected request: this report is served to this machine only; open it through http://127.0.0.1:PORT/", http.StatusMisdirectedRequest)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := path.Clean("/" + r.URL.Path)
	if name == "/" {
		name = "/" + FileIndex
	}
	name = strings.TrimPrefix(name, "/")
	if !fs.ValidPath(name) || hasDotSegment(name) {
		http.NotFound(w, r)
		return
	}
	// Lstat first so a FIFO or device is never opened; the open itself does
	// not block either, should one replace the file in between.
	st, err := s.root.Lstat(name)
	if err != nil || !st.Mode().IsRegular() {
		if err != nil && os.IsPermission(err) {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		http.NotFound(w, r) // folders are not listed; links are not followed
		return
	}
	f, err := s.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if os.IsPermission(err) {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	ext := strings.ToLower(path.Ext(name))
	ctype, ok := contentTypes[ext]
	if !ok {
		ctype = mime.TypeByExtension(ext)
	}
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h.Set("Content-Type", ctype)
	http.ServeContent(w, r, name, st.ModTime(), f)
}

// hasDotSegment reports whether a slash-separated path has a segment
// starting with '.' (a dotfile or dot-folder: .git, .env, trtperf's own
// temporary entries).
func hasDotSegment(name string) bool {
	for seg := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}
