#!/usr/bin/env bash
# agent-eval.sh - evaluate the trt-perf-analysis skill with AI agents.
#
#   scripts/agent-eval.sh list                 the tasks (scripts/agent-eval/tasks.txt)
#   scripts/agent-eval.sh setup DIR            build trtperf, install the skill in DIR/skill,
#                                              copy each task's dumps to DIR/tasks/N/, and
#                                              start DIR/results.md from the template
#   scripts/agent-eval.sh prompt N DIR         the prompt to give the agent for task N
#   scripts/agent-eval.sh expert N             the expert's verdict (read from the corpus's
#                                              DIAGNOSIS.md now) and what to grade; never
#                                              show it to the agent
#   scripts/agent-eval.sh check N DIR          after the agent: validate its analyze.md against
#                                              its analyze-data.json and list code it wrote
#
# The agent must see only DIR/skill and DIR/tasks/N: setup copies the dump
# files (not the corpus's PROVENANCE.md or DIAGNOSIS.md, nor an issue's
# RESOLUTION.md) under neutral folder names. A task is built from corpus
# cases (case), from a pasted console log of ../shared/issues (issue), and
# can drop files (keep) or put one case's build beside another's (add), so
# that partial and mixed folders are real dumps too. CORPUS and ISSUES
# override the two folders (default ../shared/corpus and ../shared/issues
# beside the repository).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd -P)
tasks="$repo/scripts/agent-eval/tasks.txt"
template="$repo/scripts/agent-eval/results-template.md"
corpus=${CORPUS:-$repo/../shared/corpus}
issues=${ISSUES:-$repo/../shared/issues}

die() {
	echo "agent-eval.sh: error: $*" >&2
	exit 2
}

# field N KEY prints the values of KEY in task N's block, one per line.
field() {
	awk -v n="[$1]" -v k="$2" '
		/^\[[0-9]+\]$/ { in_task = ($0 == n); next }
		in_task && index($0, k ": ") == 1 { print substr($0, length(k) + 3) }
	' "$tasks"
}

task_numbers() { sed -n 's/^\[\([0-9][0-9]*\)\]$/\1/p' "$tasks"; }

need_task() {
	[ -n "${1:-}" ] || die "give a task number (see: $0 list)"
	[ -n "$(field "$1" kind)" ] || die "no task $1 in $tasks (see: $0 list)"
}

need_dir() {
	[ -n "${1:-}" ] || die "give the evaluation folder made by: $0 setup DIR"
	[ -d "$1/skill" ] && [ -d "$1/tasks" ] || die "$1 is not an evaluation folder; make one with: $0 setup $1"
}

# copy_dumps CASE DEST copies a corpus case's dump files (not its notes).
copy_dumps() {
	local src="$corpus/$1"
	[ -d "$src" ] || die "corpus case $src not found; set CORPUS to the corpus folder"
	mkdir -p "$2"
	find "$src" -maxdepth 1 -type f ! -name '*.md' -exec cp {} "$2"/ \;
}

# copy_issue CASE DEST copies what the user pasted in an issue thread (its
# logs and pasted JSON), not the thread's PROVENANCE.md or RESOLUTION.md.
copy_issue() {
	local src="$issues/$1"
	[ -d "$src" ] || die "issue case $src not found; set ISSUES to the issues folder"
	mkdir -p "$2"
	find "$src" -maxdepth 1 -type f ! -name '*.md' -exec cp {} "$2"/ \;
}

# keep_only DEST GLOBS removes the files of DEST that match none of GLOBS
# (a layer-only folder keeps layers_*.json).
keep_only() {
	local dest=$1 f base g keep
	shift
	for f in "$dest"/*; do
		[ -f "$f" ] || continue
		base=$(basename "$f")
		keep=0
		for g in "$@"; do
			# shellcheck disable=SC2254
			case $base in $g) keep=1 ;; esac
		done
		[ "$keep" = 1 ] || rm -f "$f"
	done
}

# add_build DEST SUBDIR CASE LABEL NEWLABEL copies the files of one build
# (names ending _LABEL.json or holding _LABEL_) of a corpus case into
# DEST/SUBDIR, renamed to NEWLABEL: another model's build beside this one,
# or a second folder for a before/after question.
add_build() {
	local dest=$1/$2 src="$corpus/$3" label=$4 new=$5 f base
	[ -d "$src" ] || die "corpus case $src not found; set CORPUS to the corpus folder"
	mkdir -p "$dest"
	for f in "$src"/*"_$label.json" "$src"/*"_${label}_"*; do
		[ -f "$f" ] || continue
		base=$(basename "$f")
		cp "$f" "$dest/${base/_${label}/_${new}}"
	done
	# Device metadata belongs to every build of the case.
	for f in "$src"/*_device.json; do
		[ -f "$f" ] && [ ! -e "$dest/$(basename "$f")" ] && cp "$f" "$dest/"
	done
	return 0
}

# sources N lists where task N's files come from: its corpus cases (case
# and add) and its issue case as issues/NAME.
sources() {
	{
		field "$1" case | tr ' ' '\n'
		field "$1" add | awk '{print $2}'
		field "$1" issue | sed 's|^|issues/|'
	} | grep . | awk '!seen[$0]++' | paste -sd ' ' -
}

cmd_list() {
	for n in $(task_numbers); do
		printf '%s\t%s\t%s\n' "$n" "$(field "$n" kind)" "$(sources "$n")"
	done
}

cmd_setup() {
	local dir=${1:-}
	[ -n "$dir" ] || die "give a new folder: $0 setup DIR"
	[ ! -e "$dir" ] || [ -z "$(ls -A "$dir")" ] || die "$dir is not empty; give a new folder"
	[ -f "$corpus/DIAGNOSIS.md" ] || die "no corpus at $corpus; set CORPUS to the folder holding DIAGNOSIS.md"
	mkdir -p "$dir/tasks"
	dir=$(cd "$dir" && pwd -P)
	(cd "$repo" && go build -o "$dir/bin/trtperf" ./cmd/trtperf)
	"$dir/bin/trtperf" skill install "$dir/skill" --no-cross >/dev/null
	for n in $(task_numbers); do
		local folder dest comps
		folder=$(field "$n" folder)
		dest="$dir/tasks/$n/$folder"
		comps=$(field "$n" component)
		if [ -n "$comps" ]; then
			while IFS='=' read -r name case; do
				copy_dumps "$case" "$dest/$name"
			done <<<"$comps"
		elif [ -n "$(field "$n" issue)" ]; then
			copy_issue "$(field "$n" issue)" "$dest"
		elif [ -n "$(field "$n" case)" ]; then
			copy_dumps "$(field "$n" case)" "$dest"
		fi
		local keep
		keep=$(field "$n" keep)
		# shellcheck disable=SC2086 # a list of globs
		[ -z "$keep" ] || keep_only "$dest" $keep
		while read -r sub case label new; do
			[ -n "$sub" ] || continue
			add_build "$dest" "$sub" "$case" "$label" "$new"
		done < <(field "$n" add)
	done
	sed "s/^Run: DATE, trtperf COMMIT/Run: $(date -u +%Y-%m-%d), trtperf $(cd "$repo" && git rev-parse --short HEAD)/" "$template" >"$dir/results.md"
	echo "skill: $dir/skill"
	echo "tasks: $dir/tasks/1 .. $dir/tasks/$(task_numbers | tail -n 1)"
	echo "results: $dir/results.md"
	echo "next: $0 prompt 1 $dir"
}

cmd_prompt() {
	need_task "${1:-}"
	need_dir "${2:-}"
	local n=$1 dir
	dir=$(cd "$2" && pwd -P)
	local work="$dir/tasks/$n"
	cat <<EOF
You are helping a user with TensorRT engine performance. You have one skill,
installed at $dir/skill: read $dir/skill/SKILL.md first and follow it. Use
only that skill's commands (scripts/run.sh); do not read other folders.

The user's dumps: $work/$(field "$n" folder)

The user asks: "$(field "$n" question)"

Answer the user. Write your analysis as $work/analyze.md and keep the
analyze-data.json it is written from as $work/analyze-data.json (for a folder
of several models: one analyze.md and analyze-data.json per model, in
$work/<model>/). If the user wants reports, write them under $work/reports.
End with the list of commands you ran, in order, and say whether you had to
write any code of your own.
EOF
}

cmd_expert() {
	need_task "${1:-}"
	local n=$1
	[ -f "$corpus/DIAGNOSIS.md" ] || die "no DIAGNOSIS.md in $corpus; set CORPUS"
	echo "task $n: $(field "$n" kind)"
	echo "question: $(field "$n" question)"
	echo
	echo "expert (DIAGNOSIS.md, read now):"
	local found=0
	for c in $(field "$n" case); do
		# Table rows whose first cell starts with the case name.
		if grep -F "| $c" "$corpus/DIAGNOSIS.md" | awk -F'|' '{ gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $3); print "  " $2 ": " $3 }' | grep .; then
			found=1
		fi
	done
	[ "$found" = 1 ] || [ -n "$(field "$n" issue)" ] || [ -n "$(field "$n" add)" ] || echo "  (no row for $(field "$n" case) in DIAGNOSIS.md)"
	local is
	is=$(field "$n" issue)
	if [ -n "$is" ]; then
		found=1
		echo "  $is (RESOLUTION.md, read now):"
		grep -E '^(kind|expected_first_problem):' "$issues/$is/RESOLUTION.md" | sed 's/^/  /'
	fi
	for c in $(field "$n" add | awk '{print $2}' | sort -u); do
		grep -F "| $c" "$corpus/DIAGNOSIS.md" | awk -F'|' '{ gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $3); print "  " $2 ": " $3 }'
	done
	echo
	echo "grade: $(field "$n" grade)"
}

cmd_check() {
	need_task "${1:-}"
	need_dir "${2:-}"
	local n=$1 dir=$2 status=0
	local work="$dir/tasks/$n"
	local found=0
	while IFS= read -r md; do
		found=1
		local data
		data="$(dirname "$md")/analyze-data.json"
		echo "== $md"
		if [ -f "$data" ]; then
			"$dir/bin/trtperf" validate "$data" --analyze-md "$md" || status=1
		else
			echo "no analyze-data.json beside it"
			status=1
		fi
	done < <(find "$work" -name analyze.md -not -path '*/reports/*' | sort)
	[ "$found" = 1 ] || { echo "no analyze.md under $work"; status=1; }
	echo "== reports"
	find "$work" -path '*/reports/*' -name index.html | sed 's/^/  /' | grep . || echo "  none"
	echo "== code the agent wrote in $work (hand-written analysis)"
	# A report folder (it holds the analysis trtperf packaged) ships its own
	# JavaScript: that is the product's, not the agent's.
	find "$work" -type d -exec test -f '{}/analyze-data.json' -a -f '{}/index.html' \; -prune -o \
		-type f \( -name '*.py' -o -name '*.js' -o -name '*.ts' -o -name '*.go' -o -name '*.sh' -o -name '*.ipynb' -o -name '*.jq' \) -print |
		sed 's/^/  /' | grep . || echo "  none"
	return $status
}

case ${1:-} in
list) cmd_list ;;
setup) cmd_setup "${2:-}" ;;
prompt) cmd_prompt "${2:-}" "${3:-}" ;;
expert) cmd_expert "${2:-}" ;;
check) cmd_check "${2:-}" "${3:-}" ;;
*) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
