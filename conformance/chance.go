package conformance

// The statistics of the property checks and of observation: the suite's
// false-alarm rate and the chances that two starts or two spawns of a
// profile agree, with the test of repeats built on them.

import (
	"math"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/stats"
)

// falseAlarmRate bounds the chance that a run of the suite fails a
// correct implementation by chance: all the run's statistical tests
// together (every profile's), by Bonferroni's bound, each test at the
// level falseAlarmRate / the number of statistical tests in the run.
const falseAlarmRate = 1e-4

// startCollision returns the chance that two independent new games of p
// start on the same board: p.StartTiles tiles on distinct cells, every
// set of cells alike, each value drawn by the weights.
func startCollision(p *engine.Profile) float64 { return startCollisionOf(p, p.StartTiles) }

// startCollisionOf is [startCollision] for starts of n tiles.
func startCollisionOf(p *engine.Profile, n int) float64 {
	cells, k := float64(p.Rows*p.Cols), float64(n)
	lg := func(x float64) float64 { v, _ := math.Lgamma(x + 1); return v }
	sameCells := math.Exp(lg(k) + lg(cells-k) - lg(cells)) // 1 / C(cells, k)
	return sameCells * math.Pow(spawnCollision(p), k)
}

// spawnCollision returns the chance that two independent spawns of p
// have the same value: the sum of the squared chances of its values.
func spawnCollision(p *engine.Profile) float64 {
	var total, sq float64
	for _, w := range p.Spawn {
		total += float64(w.Weight)
	}
	for _, w := range p.Spawn {
		q := float64(w.Weight) / total
		sq += q * q
	}
	return sq
}

// repeatTest tests n things, counted by kind in counts, against
// independent ones, two of which are alike with chance collision: the
// pairs alike, the pairs chance gives, and the p-value (a Poisson test)
// of as many pairs or more.
func repeatTest[K comparable](counts map[K]int, n int, collision float64) (pairs int, lambda, p float64) {
	for _, k := range counts {
		pairs += k * (k - 1) / 2
	}
	lambda = float64(n*(n-1)/2) * collision
	return pairs, lambda, stats.PoissonSF(pairs, lambda)
}
