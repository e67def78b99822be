#!/bin/sh
# run.sh - run trtperf from this skill on any machine, with no setup.
#
# It runs the first of:
#   1. $TRTPERF                          an explicit path to the executable
#   2. <skill>/bin/<os>-<arch>/trtperf   the binary shipped in the skill
#   3. trtperf on PATH
#   4. a build of the trtperf source (the checkout this skill sits in, or
#      $TRTPERF_SRC) with the Go toolchain, cached under
#      ${XDG_CACHE_HOME:-$HOME/.cache}/trtperf/
# and passes the arguments and the exit code through unchanged (exec).
# When none is available it prints one error line and exits 127.
set -u

die() {
	echo "run.sh: error: $*" >&2
	exit 127
}

# Follow symlinks from $0 to the script itself (a link such as
# ~/bin/trtperf -> .../scripts/run.sh must still find the skill): readlink
# without options exists on GNU, BSD, macOS and busybox; ls -l is the
# fallback. Relative targets are relative to the link's folder.
self=$0
hops=0
while [ -L "$self" ]; do
	hops=$((hops + 1))
	[ "$hops" -le 40 ] || die "too many symlinks from $0"
	target=$(readlink -- "$self" 2>/dev/null) || target=$(ls -ld -- "$self" 2>/dev/null | sed 's/^.* -> //')
	[ -n "$target" ] || die "cannot follow the symlink $self"
	case $target in
	/*) self=$target ;;
	*) self=$(dirname -- "$self")/$target ;;
	esac
done
here=$(CDPATH='' cd -- "$(dirname -- "$self")" && pwd -P) || die "cannot locate the skill folder from $0"
skill=$(dirname -- "$here")

# 1. An explicit executable wins; a wrong one is an error, not a fallback.
if [ -n "${TRTPERF:-}" ]; then
	if [ -f "$TRTPERF" ] && [ -x "$TRTPERF" ]; then
		exec "$TRTPERF" "$@"
	fi
	die "TRTPERF=$TRTPERF is not an executable file; set TRTPERF to the trtperf binary, or unset it to use the one in the skill"
fi

# 2. The binary shipped in the skill for this OS and CPU.
exe=
case $(uname -s 2>/dev/null) in
Linux*) os=linux ;;
Darwin*) os=darwin ;;
MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows exe=.exe ;;
*) os=$(uname -s 2>/dev/null | tr '[:upper:]' '[:lower:]') ;;
esac
case $(uname -m 2>/dev/null) in
x86_64 | amd64 | AMD64) arch=amd64 ;;
aarch64 | arm64 | ARM64) arch=arm64 ;;
*) arch=$(uname -m 2>/dev/null) ;;
esac
shipped="$skill/bin/$os-$arch/trtperf$exe"
if [ -f "$shipped" ] && [ -x "$shipped" ]; then
	exec "$shipped" "$@"
fi

# 3. An installed trtperf.
if command -v trtperf >/dev/null 2>&1; then
	exec trtperf "$@"
fi

# 4. Build from source: $TRTPERF_SRC, or the checkout holding this skill
# (<src>/skill/trt-perf-analysis).
is_src() {
	[ -f "$1/go.mod" ] && [ -d "$1/cmd/trtperf" ] && grep -q '^module github.com/trtperf/trtperf$' "$1/go.mod" 2>/dev/null
}
src=
if [ -n "${TRTPERF_SRC:-}" ]; then
	is_src "$TRTPERF_SRC" || die "TRTPERF_SRC=$TRTPERF_SRC is not a trtperf source checkout (no go.mod of github.com/trtperf/trtperf with cmd/trtperf); fix or unset it"
	src=$TRTPERF_SRC
elif is_src "$skill/../.."; then
	src=$(CDPATH='' cd -- "$skill/../.." && pwd -P)
fi
if [ -n "$src" ] && command -v go >/dev/null 2>&1; then
	cache=${XDG_CACHE_HOME:-${HOME:-${TMPDIR:-/tmp}}/.cache}/trtperf
	mkdir -p "$cache" || die "cannot create the build cache $cache; set XDG_CACHE_HOME to a writable folder"
	bin="$cache/trtperf-$os-$arch$exe"
	# go build relinks only when the source changed, so this is quick after
	# the first run and never runs a stale binary.
	(cd "$src" && go build -o "$bin" ./cmd/trtperf) >&2 || die "building trtperf from $src failed (see above); fix the build or set TRTPERF to a trtperf binary"
	exec "$bin" "$@"
fi

if [ -n "$src" ]; then
	die "trtperf not found: no $shipped, no trtperf on PATH, and no Go toolchain to build the source in $src; install Go (https://go.dev/dl/), or reinstall the skill with 'trtperf skill install DIR', or set TRTPERF=/path/to/trtperf"
fi
die "trtperf not found: no $shipped and no trtperf on PATH; reinstall the skill with binaries ('trtperf skill install DIR'), install trtperf ('go install github.com/trtperf/trtperf/cmd/trtperf@latest'), or set TRTPERF=/path/to/trtperf"
