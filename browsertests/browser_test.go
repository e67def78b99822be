package browsertests

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trtperf/trtperf/internal/contract"
	"github.com/trtperf/trtperf/internal/report"
)

// chromium finds a Chromium binary: $TRTPERF_CHROMIUM, Debian's
// /usr/bin/chromium, or one on PATH.
func chromium() string {
	if p := os.Getenv("TRTPERF_CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// page is one browser tab with the JS errors it has seen.
type page struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

func (p *page) jsErrors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errors...)
}

// newPage starts a fresh headless Chromium (own profile, no network
// services) and returns a tab that records exceptions and console errors.
func newPage(tb testing.TB, timeout time.Duration) *page {
	tb.Helper()
	bin := chromium()
	if bin == "" {
		tb.Skip("SKIP: no Chromium found (install Debian's chromium or set TRTPERF_CHROMIUM); browser tests did not run")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.WindowSize(1600, 1200),
	}
	// The first Run starts the browser and must not carry the timeout. On
	// a loaded machine Chromium sometimes exits before it prints its
	// DevTools address; a fresh start then succeeds, so up to three tries.
	var bctx context.Context
	for try := 1; ; try++ {
		// Each try gets its own profile: a crashed start may leave a lock.
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(opts, chromedp.UserDataDir(tb.TempDir()))...)
		ctx, cancelCtx := chromedp.NewContext(actx)
		err := chromedp.Do(ctx)
		if err == nil {
			bctx = ctx
			tb.Cleanup(func() {
				cancelCtx()
				cancelAlloc()
			})
			break
		}
		cancelCtx()
		cancelAlloc()
		if try == 3 {
			tb.Fatalf("start Chromium %s (3 tries): %v", bin, err)
		}
		tb.Logf("start Chromium %s, try %d: %v; trying again", bin, try, err)
		time.Sleep(2 * time.Second)
	}
	ctx, cancelTimeout := context.WithTimeout(bctx, timeout)
	tb.Cleanup(cancelTimeout)
	p := &page{ctx: ctx}
	messages := chromedp.Console(bctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type != chromedp.ConsoleError && m.Type != chromedp.ConsoleWarning && m.Type != chromedp.ConsoleException {
				continue
			}
			p.mu.Lock()
			p.errors = append(p.errors, m.String())
			p.mu.Unlock()
		}
	}()
	return p
}

// open loads url and waits until the app says it is interactive and the
// graph layout computed off the main thread (dagre, in a worker) is in.
func (p *page) open(tb testing.TB, url string) {
	tb.Helper()
	p.do(tb, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS(`body[data-ready="1"]:not([data-layout="pending"])`)))
}

func (p *page) do(tb testing.TB, actions ...chromedp.Action[chromedp.Void]) {
	tb.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		tb.Fatalf("%v (JS errors: %v)", err, p.jsErrors())
	}
}

func run[T any](tb testing.TB, p *page, a chromedp.Action[T]) T {
	tb.Helper()
	v, err := chromedp.Run(p.ctx, a)
	if err != nil {
		tb.Fatalf("%v (JS errors: %v)", err, p.jsErrors())
	}
	return v
}

// eval runs a JS expression and decodes its value.
func eval[T any](tb testing.TB, p *page, js string, opts ...chromedp.EvaluateOption) T {
	tb.Helper()
	return run(tb, p, chromedp.Evaluate[T](js, opts...))
}

func (p *page) text(tb testing.TB, sel string) string {
	tb.Helper()
	return run(tb, p, chromedp.TextContent(chromedp.CSS(sel)))
}

func (p *page) attr(tb testing.TB, sel, name string) string {
	tb.Helper()
	r := run(tb, p, chromedp.AttributeValue(chromedp.CSS(sel), name))
	if !r.Exists {
		tb.Fatalf("%s has no attribute %s", sel, name)
	}
	return r.Value
}

// setValue sets a form control and fires the event the app listens to.
func (p *page) setValue(tb testing.TB, sel, value, event string) {
	tb.Helper()
	p.do(tb, js(fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.value = %q; el.dispatchEvent(new Event(%q)); })()`, sel, value, event)))
}

// click scrolls the first element matching sel into view and clicks its
// centre with real mouse events.
func (p *page) click(tb testing.TB, sel string) {
	tb.Helper()
	pos := eval[struct{ X, Y float64 }](tb, p, fmt.Sprintf(`new Promise((resolve) => {
		const el = document.querySelector(%q);
		if (!el) return resolve({x: -1, y: -1});
		el.scrollIntoView({block: "center", behavior: "instant"});
		requestAnimationFrame(() => requestAnimationFrame(() => {
			const r = el.getBoundingClientRect();
			resolve({x: r.left + Math.min(r.width / 2, 40), y: r.top + r.height / 2});
		}));
	})`, sel), chromedp.EvalAwaitPromise)
	if pos.X < 0 {
		tb.Fatalf("click: nothing matches %s", sel)
	}
	p.do(tb, chromedp.MouseClickXY(pos.X, pos.Y), chromedp.Sleep(30*time.Millisecond))
}

// js runs a statement for its effect, ignoring its value.
func js(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[any](expr)(ctx, t)
		return err
	})
}

// screenshot saves a full-page PNG to $TRTPERF_ARTIFACTS (or a temp dir)
// and returns its path.
func (p *page) screenshot(tb testing.TB, name string) string {
	tb.Helper()
	dir := os.Getenv("TRTPERF_ARTIFACTS")
	if dir == "" {
		dir = tb.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	buf := run(tb, p, chromedp.FullScreenshot(100))
	file := filepath.Join(dir, name+".png")
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("screenshot: %s", file)
	return file
}

// publish packages d (with optional analyze.md) into a new report folder.
func publish(tb testing.TB, d *contract.AnalyzeData, md []byte) string {
	tb.Helper()
	var buf bytes.Buffer
	if err := contract.Encode(&buf, d); err != nil {
		tb.Fatal(err)
	}
	dir, err := report.Publisher{}.Publish(d, buf.Bytes(), md, report.Target{OutputParent: tb.TempDir(), Timestamp: "20240101_000000"})
	if err != nil {
		tb.Fatalf("publish: %v", err)
	}
	return dir
}

func fileURL(dir string) string {
	abs, _ := filepath.Abs(dir)
	return "file://" + filepath.ToSlash(abs) + "/index.html"
}

// serve runs report.NewServer on a free loopback port for the test.
func serve(tb testing.TB, dir string) string {
	tb.Helper()
	h, err := report.NewServer(dir)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	tb.Cleanup(func() { srv.Close() })
	return fmt.Sprintf("http://%s/", ln.Addr())
}
