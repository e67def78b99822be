#!/usr/bin/env bash
# End-to-end benchmark (issue 6): generate 1k/10k/50k/200k-layer LLM dumps,
# run `trtperf analyze` on each under /usr/bin/time -v, and print wall time,
# peak RSS, input/output size and throughput as a table; then time
# `trtperf validate` and `trtperf package` on the largest engine.
#
# Usage: scripts/bench.sh            (from anywhere in the repo)
# Env:   BENCH_SIZES="1000 10000"    layer counts (default 1000 10000 50000 200000)
#        BENCH_DIR=/path             cache for dumps and outputs (default $TMPDIR/trtperf-bench)
# Dumps are cached per size and regenerated only when the generator changes.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${BENCH_DIR:-${TMPDIR:-/tmp}/trtperf-bench}
SIZES=${BENCH_SIZES:-"1000 10000 50000 200000"}
TIME=/usr/bin/time

if [[ ! -x $TIME ]]; then
	echo "error: $TIME not found; install it with: apt-get install -y time" >&2
	exit 2
fi
mkdir -p "$WORK"
BIN=$WORK/trtperf
echo "building trtperf -> $BIN" >&2
(cd "$ROOT" && go build -o "$BIN" ./cmd/trtperf)

# has CMD: the binary implements `trtperf CMD`.
has() { "$BIN" "$1" --help >/dev/null 2>&1; }

# measure LOG CMD...: run CMD under time -v; sets WALL (s), RSS (MB), RC.
measure() {
	local log=$1
	shift
	set +e
	"$TIME" -v "$@" >"$log.out" 2>"$log"
	RC=$?
	set -e
	WALL=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; printf "%.2f", s}' "$log")
	RSS=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$log")
}

mb() { awk -v b="$1" 'BEGIN {printf "%.1f", b/1048576}'; }
size() { local t=0 f; for f in "$@"; do [[ -f $f ]] && t=$((t + $(stat -c %s "$f"))); done; echo "$t"; }

# The cache key: generator sources + flags, so stale dumps are never timed.
GENKEY=$(cat "$ROOT"/internal/gen/*.go | sha256sum | cut -c1-16)
for n in $SIZES; do
	dir=$WORK/llm-$n
	stamp="$GENKEY --shape llm --layers $n --seed 1"
	if [[ ! -f $dir/.stamp || $(cat "$dir/.stamp") != "$stamp" ]]; then
		echo "generating $n-layer LLM dump in $dir" >&2
		rm -rf "$dir"
		"$BIN" gen --shape llm --layers "$n" --seed 1 --label fp16 --out "$dir" >/dev/null
		echo "$stamp" >"$dir/.stamp"
	fi
done

echo
echo "trtperf analyze DIR --output out.json  ($(nproc) cores, $(go version | awk '{print $3}'))"
if ! has analyze; then
	echo "  skipped: this trtperf has no 'analyze' command yet"
else
	printf "%8s %10s %10s %8s %8s %10s %12s\n" layers "input MB" "output MB" "out/in" "wall s" "RSS MB" "MB/s in"
	for n in $SIZES; do
		dir=$WORK/llm-$n
		out=$WORK/out-$n.json
		rm -f "$out"
		measure "$WORK/analyze-$n.log" "$BIN" analyze "$dir" --output "$out"
		in=$(size "$dir"/layers_fp16.json "$dir"/profile_fp16.json)
		if [[ $RC -ne 0 ]]; then
			printf "%8s  failed (exit %s): see %s\n" "$n" "$RC" "$WORK/analyze-$n.log"
			continue
		fi
		o=$(size "$out")
		awk -v n="$n" -v i="$in" -v o="$o" -v w="$WALL" -v r="$RSS" 'BEGIN {
			printf "%8d %10.1f %10.1f %8.2f %8.2f %10d %12.1f\n", n, i/1048576, o/1048576, o/i, w, r, (w > 0 ? i/1048576/w : 0) }'
	done
fi

big=$(echo "$SIZES" | tr ' ' '\n' | sort -n | tail -1)
echo
if ! has validate; then
	echo "trtperf validate: skipped (no 'validate' command yet)"
elif [[ ! -f $WORK/out-$big.json ]]; then
	echo "trtperf validate: skipped (no analyze output for $big layers)"
else
	measure "$WORK/validate-$big.log" "$BIN" validate "$WORK/out-$big.json"
	echo "trtperf validate ($big layers, $(mb "$(size "$WORK/out-$big.json")") MB): wall ${WALL} s, peak RSS ${RSS} MB, exit $RC"
fi
if ! has package; then
	echo "trtperf package: skipped (no 'package' command yet)"
else
	rm -rf "$WORK/report-$big"
	measure "$WORK/package-$big.log" "$BIN" package "$WORK/llm-$big" --report-dir "$WORK/report-$big"
	echo "trtperf package ($big layers): wall ${WALL} s, peak RSS ${RSS} MB, exit $RC"
fi
echo
echo "logs and outputs: $WORK"
