// Package stats holds the few significance tests tileproof uses to judge
// whether spawns follow a profile's distribution: an exact binomial test,
// Pearson's chi-square test and the normal tail.
package stats

import "math"

// BinomialTwoSided returns the two-sided p-value of k successes in n
// trials with success probability p: the probability, under that
// distribution, of an outcome no more likely than k. It sums the two
// tails outward from the mode, each term from the one before it, and
// stops where the terms no longer change the sum: a few hundred terms
// whatever n, for the spawns of a game of any length.
func BinomialTwoSided(n, k int, p float64) float64 {
	if n <= 0 || k < 0 || k > n {
		return 1
	}
	if p == 0 || p == 1 {
		if k == 0 && p == 0 || k == n && p == 1 {
			return 1
		}
		return 0
	}
	logPMF := func(i int) float64 {
		lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
		return lg(n) - lg(i) - lg(n-i) + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p)
	}
	mode := min(n, int(float64(n+1)*p))
	top := logPMF(mode)
	// Terms are relative to the mode's, in (0, 1]; an outcome within
	// rounding of k's probability counts as as likely.
	ref := math.Exp(logPMF(k) - top + 1e-7)
	odds := p / (1 - p)
	sum := 0.0
	// Below the mode: t(i-1) = t(i) * i / (n-i+1) / odds.
	for i, t := mode, 1.0; i >= 0; i-- {
		if t <= ref {
			sum += t
			if t < sum*1e-17 {
				break
			}
		}
		if i > 0 {
			t *= float64(i) / float64(n-i+1) / odds
		}
	}
	// Above it: t(i+1) = t(i) * (n-i) / (i+1) * odds.
	for i, t := mode+1, float64(n-mode)/float64(mode+1)*odds; i <= n; i++ {
		if t <= ref {
			sum += t
			if t < sum*1e-17 {
				break
			}
		}
		t *= float64(n-i) / float64(i+1) * odds
	}
	return math.Min(1, sum*math.Exp(top))
}

// ChiSquare returns Pearson's statistic for observed counts against
// expected counts, skipping cells whose expected count is 0, and the
// number of cells that entered it.
func ChiSquare(observed, expected []float64) (stat float64, cells int) {
	for i, e := range expected {
		if e <= 0 {
			continue
		}
		d := observed[i] - e
		stat += d * d / e
		cells++
	}
	return stat, cells
}

// ChiSquareSF returns P(X >= x) for X chi-square distributed with df
// degrees of freedom: the p-value of a chi-square statistic.
func ChiSquareSF(x float64, df int) float64 {
	if df <= 0 || x <= 0 {
		return 1
	}
	return gammaQ(float64(df)/2, x/2)
}

// NormalSF returns P(Z >= z) for a standard normal Z.
func NormalSF(z float64) float64 { return 0.5 * math.Erfc(z/math.Sqrt2) }

// gammaQ is the regularized upper incomplete gamma function Q(a, x), by
// its series for x < a+1 and its continued fraction otherwise.
func gammaQ(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	if x < a+1 {
		// P(a, x) = x^a e^-x / Gamma(a+1) * sum x^n / ((a+1)...(a+n))
		term, sum := 1/a, 1/a
		for n := 1; n < 1000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if math.Abs(term) < math.Abs(sum)*1e-15 {
				break
			}
		}
		return math.Max(0, 1-sum*math.Exp(-x+a*math.Log(x)-lg))
	}
	// Lentz's method for the continued fraction of Q(a, x).
	const tiny = 1e-300
	b := x + 1 - a
	c, d := 1/tiny, 1/b
	h := d
	for i := 1; i < 1000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		delta := d * c
		h *= delta
		if math.Abs(delta-1) < 1e-15 {
			break
		}
	}
	return math.Exp(-x+a*math.Log(x)-lg) * h
}

// PoissonSF returns P(X >= k) for X Poisson with mean lambda: the
// p-value of seeing k or more events where lambda are expected.
func PoissonSF(k int, lambda float64) float64 {
	if k <= 0 {
		return 1
	}
	if lambda <= 0 {
		return 0
	}
	// P(X >= k) is the regularized lower incomplete gamma P(k, lambda),
	// 1 - Q(k, lambda).
	return 1 - gammaQ(float64(k), lambda)
}
