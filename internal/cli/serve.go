package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/trtperf/trtperf/internal/report"
)

func init() { register("serve", newServeCmd) }

// serveTimeouts bound every connection: a client that sends its request
// slowly, reads slowly or keeps an idle connection open is dropped. Tests
// shorten them (deps.serveTimeouts).
type serveTimeouts struct{ header, read, write, idle time.Duration }

var defaultServeTimeouts = serveTimeouts{
	header: 10 * time.Second, read: 30 * time.Second, write: 5 * time.Minute, idle: time.Minute,
}

// newHTTPServer is the http.Server of serve, with its limits.
func newHTTPServer(h http.Handler, to serveTimeouts) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: to.header,
		ReadTimeout:       to.read,
		WriteTimeout:      to.write,
		IdleTimeout:       to.idle,
		MaxHeaderBytes:    64 << 10,
	}
}

func newServeCmd(d *deps) *cobra.Command {
	var addr string
	var allowRemote bool
	c := &cobra.Command{
		Use:   "serve REPORT_DIR",
		Short: "Serve a packaged report over HTTP on this machine",
		Long: `serve makes a report folder (from 'trtperf package') available to a browser
at http://127.0.0.1:PORT/. The default --addr 127.0.0.1:0 takes a free port and
listens on the loopback interface only, so nobody else on the network can read
the report. Only that folder is served: no listing of folders, no path outside
it (neither '..' nor symlinks, no dotfiles, regular files only), nothing
cached. Requests must name the server as 127.0.0.1, [::1] or localhost, so a
web page elsewhere cannot read the report through DNS rebinding. An --addr
that is not loopback is refused unless --allow-remote is given. Stop it with
Ctrl-C.

A report also works without serve: open its index.html from disk.`,
		Example: `  trtperf serve reports/report_resnet50_20240131_120000
  trtperf serve R --addr 127.0.0.1:8080`,
		Args: argCount(1, 1),
		RunE: func(c *cobra.Command, args []string) error {
			dir := args[0]
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				return cannotRun("report folder %s does not exist; give a folder made by 'trtperf package'", dir)
			}
			if !report.IsReport(dir) {
				return cannotRun("%s is not a trtperf report (it lacks index.html, data.js or analyze-data.json); make one with 'trtperf package FOLDER'", dir)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return cannotRun("cannot listen on %s: %v; choose another --addr (127.0.0.1:0 picks a free port)", addr, err)
			}
			var hosts []string
			if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
				if !allowRemote {
					ln.Close()
					return cannotRun("--addr %s is not a loopback address: other machines could read this report; use 127.0.0.1:PORT, or pass --allow-remote to serve it to the network on purpose", addr)
				}
				hosts = remoteHosts(ln.Addr())
				fmt.Fprintf(c.ErrOrStderr(), "warning: listening on %s, not loopback (--allow-remote): other machines can read this report\n", ln.Addr())
			}
			h, err := report.NewServer(dir, hosts...)
			if err != nil {
				ln.Close()
				return cannotRun("open %s: %v", dir, err)
			}
			ctx, stop := d.serveContext(c.Context())
			defer stop()
			srv := newHTTPServer(h, d.serveTimeouts)
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
	c.Flags().BoolVar(&allowRemote, "allow-remote", false, "allow an --addr that is not loopback (other machines can then read the report)")
	return c
}

// remoteHosts are the Host names a non-loopback serve answers to: the
// address it listens on, or every address of this machine when it listens
// on all of them, and the host name.
func remoteHosts(a net.Addr) []string {
	var hosts []string
	if name, err := os.Hostname(); err == nil {
		hosts = append(hosts, name)
	}
	tcp, ok := a.(*net.TCPAddr)
	if ok && !tcp.IP.IsUnspecified() {
		return append(hosts, tcp.IP.String())
	}
	addrs, _ := net.InterfaceAddrs()
	for _, ia := range addrs {
		if ipn, ok := ia.(*net.IPNet); ok {
			hosts = append(hosts, ipn.IP.String())
		}
	}
	return hosts
}
