package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/report"
)

func init() { register("serve", newServeCmd) }

// serveContext ends when the user interrupts serve; tests replace it.
var serveContext = func(parent context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

func newServeCmd() *cobra.Command {
	var addr string
	c := &cobra.Command{
		Use:   "serve REPORT_DIR",
		Short: "Serve a packaged report over HTTP on this machine",
		Long: `serve makes a report folder (from 'trtperf package') available to a browser
at http://127.0.0.1:PORT/. The default --addr 127.0.0.1:0 takes a free port and
listens on the loopback interface only, so nobody else on the network can read
the report. Only that folder is served: no listing of folders, no path outside
it (neither '..' nor symlinks), nothing cached. Stop it with Ctrl-C.

A report also works without serve: open its index.html from disk.`,
		Example: `  trtperf serve reports/report_resnet50_20240131_120000
  trtperf serve R --addr 127.0.0.1:8080`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			dir := args[0]
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				return cannotRun("report folder %s does not exist; give a folder made by 'trtperf package'", dir)
			}
			if !report.IsReport(dir) {
				return cannotRun("%s is not a trtperf report (it lacks index.html, data.js or analyze-data.json); make one with 'trtperf package FOLDER'", dir)
			}
			h, err := report.NewServer(dir)
			if err != nil {
				return cannotRun("open %s: %v", dir, err)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return cannotRun("cannot listen on %s: %v; choose another --addr (127.0.0.1:0 picks a free port)", addr, err)
			}
			if tcp, ok := ln.Addr().(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
				fmt.Fprintf(c.ErrOrStderr(), "warning: listening on %s, not loopback: other machines can read this report\n", tcp)
			}
			ctx, stop := serveContext(c.Context())
			defer stop()
			srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
			fmt.Fprintf(c.OutOrStdout(), "serving %s at http://%s/\n", dir, ln.Addr())
			errc := make(chan error, 1)
			go func() { errc <- srv.Serve(ln) }()
			select {
			case err := <-errc:
				return &ExitError{Code: ExitCannotRun, Err: fmt.Errorf("serve %s: %w", dir, err)}
			case <-ctx.Done():
			}
			shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := srv.Shutdown(shut); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return &ExitError{Code: ExitCannotRun, Err: fmt.Errorf("stop serving: %w", err)}
			}
			return nil
		},
	}
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:0", "address to listen on; port 0 picks a free port")
	return c
}
