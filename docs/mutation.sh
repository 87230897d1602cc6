#!/usr/bin/env bash
# Mutation testing of the suite: gremlins (go-gremlins/gremlins v0.6.0)
# mutates internal/plain, an implementation of the rules written apart
# from the engine, one change at a time, and the conformance suite must
# kill each mutant: internal/plain/conformance_test.go runs the whole pack
# and the property checks against it under tile-merge. The package's own
# unit tests are left out (build tag mutation), so that only the suite
# counts.
#
#   docs/mutation.sh          run, print the counts and rewrite
#                             internal/plain/testdata/mutation.txt
#   docs/mutation.sh --check  what CI runs: exit 1 when a mutant survives
#                             that mutation.txt does not explain, or the
#                             run has fewer mutants than it lists
#
# mutation.txt lists every mutant the suite does not kill (lived, or on a
# line no test of the suite reaches), each with why: an equivalent
# mutant, or code the suite has no way to reach. A new survivor is
# written there as UNEXPLAINED: explain it, or add the case that kills it.
# docs/results.sh puts the list and the counts into docs/results.md.
set -euo pipefail
export LC_ALL=C # one order for sort and comm
cd "$(dirname "$0")/.."

list=internal/plain/testdata/mutation.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gremlins=$(command -v gremlins || true)
if [ -z "$gremlins" ]; then
	GOBIN="$work/bin" go install github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0
	gremlins="$work/bin/gremlins"
fi

start=$(date +%s)
# Every mutator gremlins has; a long time limit, since a mutant that turns
# a loop endless is killed by it, and a slow machine must not kill others.
"$gremlins" unleash --tags mutation \
	--invert-assignments --invert-bitwise --invert-bwassign --invert-logical \
	--invert-loopctrl --remove-self-assignments \
	--workers 2 --timeout-coefficient 30 \
	./internal/plain > "$work/out" 2>&1 || { cat "$work/out"; exit 2; }
seconds=$(($(date +%s) - start))

# "      LIVED CONDITIONALS_BOUNDARY at plain.go:200:10" -> "LIVED CONDITIONALS_BOUNDARY plain.go:200:10"
sed -nE 's/^ *(KILLED|LIVED|TIMED OUT|NOT COVERED|NOT VIABLE) ([A-Z_]+) at (.*)$/\1|\2 \3/p' "$work/out" > "$work/mutants"
count() { grep -c "^$1|" "$work/mutants" || true; }
killed=$(count KILLED) lived=$(count LIVED) timedout=$(count 'TIMED OUT') uncovered=$(count 'NOT COVERED') unviable=$(count 'NOT VIABLE')
total=$((killed + lived + timedout + uncovered))
if [ "$total" -eq 0 ]; then
	cat "$work/out"; echo "gremlins found no mutant" >&2; exit 2
fi
# A mutant times out when the suite does not finish on it: it is killed.
rate=$(awk -v k=$((killed + timedout)) -v t="$total" 'BEGIN { printf "%.1f", 100 * k / t }')
echo "$total mutants of internal/plain: $killed killed, $timedout killed by the time limit, $lived lived, $uncovered not reached; kill rate $rate% ($seconds s)"

# The survivors now, with the reasons the list gives.
grep -E '^(LIVED|NOT COVERED)\|' "$work/mutants" | sed 's/|/ /' | sort -u > "$work/survivors"
reason() { # "STATUS MUTATOR FILE:LINE:COL": its reason in the list
	local match
	match=$(grep -F -- "$1  " "$list" 2>/dev/null | head -1)
	if [ -n "$match" ]; then echo "${match#"$1  "}"; else echo UNEXPLAINED; fi
}

if [ "${1:-}" = --check ]; then
	known=$(grep -vE '^(#|$)' "$list" | grep -v '  UNEXPLAINED$' | sed -E 's/^((NOT COVERED|LIVED) [A-Z_]+ [^ ]+)  .*/\1/' | sort -u)
	new=$(comm -23 "$work/survivors" <(echo "$known"))
	listed=$(grep -m1 '^# mutants: ' "$list" | sed 's/^# mutants: //')
	if [ -n "$new" ]; then
		echo "mutants the suite no longer kills (not in $list):" >&2
		echo "$new" >&2
		exit 1
	fi
	if [ "$total" -lt "${listed:-0}" ]; then
		echo "gremlins made $total mutants; $list lists a run of $listed" >&2
		exit 1
	fi
	echo "every survivor is explained in $list"
	exit 0
fi

{
	echo "# Mutants of internal/plain the conformance suite does not kill, each"
	echo "# with why (docs/mutation.sh writes this file; the reasons are kept"
	echo "# from the file it replaces, a new survivor is UNEXPLAINED)."
	echo "# mutants: $total"
	echo "# killed: $killed"
	echo "# timed out: $timedout"
	echo "# lived: $lived"
	echo "# not reached: $uncovered"
	echo "# kill rate: $rate%"
	echo "# seconds: $seconds"
	while read -r line; do
		echo "$line  $(reason "$line")"
	done < "$work/survivors"
} > "$work/list"
mkdir -p "$(dirname "$list")"
cp "$work/list" "$list"
echo "wrote $list"
grep -q '  UNEXPLAINED$' "$list" && echo "explain each UNEXPLAINED line of $list" >&2 || true
