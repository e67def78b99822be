#!/bin/sh
# build-skill.sh [OUT] - build the release skill folder: SKILL.md, wrappers,
# examples and trtperf binaries for linux, darwin and windows x amd64, arm64.
# No make needed; only Go. OUT defaults to dist/trt-perf-analysis; an earlier
# build there is replaced. VERSION (default: git describe) is stamped into
# every binary.
set -eu
root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd -P)
out=${1:-$root/dist/trt-perf-analysis}
version=${VERSION:-$(git -C "$root" describe --tags --always --dirty 2>/dev/null || echo dev)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cd "$root"
# The host binary is built exactly like the cross-compiled ones, then
# installs the skill (copying itself for the host, building the others).
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/trtperf/trtperf/internal/cli.Version=$version" \
	-o "$tmp/trtperf" ./cmd/trtperf
"$tmp/trtperf" skill install "$out" --cross --source "$root" --force
