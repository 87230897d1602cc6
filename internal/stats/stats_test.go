package stats

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestBinomialTwoSided(t *testing.T) {
	// A fair coin, 10 tosses: P(k <= 2 or k >= 8) = 2 * (1+10+45)/1024.
	if got, want := BinomialTwoSided(10, 2, 0.5), 112.0/1024; !near(got, want, 1e-12) {
		t.Errorf("10 tosses, 2 heads: %v, want %v", got, want)
	}
	if got := BinomialTwoSided(10, 5, 0.5); !near(got, 1, 1e-12) {
		t.Errorf("10 tosses, 5 heads: %v, want 1", got)
	}
	// 4s at 10%: 1000 spawns with 100 fours is typical, with 200 is not.
	if p := BinomialTwoSided(1000, 100, 0.1); p < 0.5 {
		t.Errorf("100 fours in 1000: p = %v", p)
	}
	if p := BinomialTwoSided(1000, 200, 0.1); p > 1e-12 {
		t.Errorf("200 fours in 1000: p = %v", p)
	}
	// The p-value sums the outcomes no more likely than k: for 3 of 7 at
	// 10% those are 3 and more (2 is likelier); at the mode, everything.
	if p := BinomialTwoSided(7, 3, 0.1); !near(p, probAtLeast(7, 3, 0.1), 1e-12) {
		t.Errorf("7 trials, 3 successes: %v, want %v", p, probAtLeast(7, 3, 0.1))
	}
	if p := BinomialTwoSided(7, 0, 0.1); !near(p, 1, 1e-12) {
		t.Errorf("7 trials, 0 successes (the mode): %v, want 1", p)
	}
}

func probWhere(n int, p float64, keep func(int) bool) float64 {
	s := 0.0
	for i := 0; i <= n; i++ {
		if keep(i) {
			s += math.Exp(lchoose(n, i) + float64(i)*math.Log(p) + float64(n-i)*math.Log(1-p))
		}
	}
	return s
}

func probAtLeast(n, k int, p float64) float64 {
	return probWhere(n, p, func(i int) bool { return i >= k })
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

func TestChiSquareSF(t *testing.T) {
	// Known quantiles: P(X >= 3.841) = 0.05 for df 1; 11.070 for df 5;
	// 30.578 for df 15 is 0.01.
	for _, tt := range []struct {
		x    float64
		df   int
		want float64
	}{{3.841459, 1, 0.05}, {11.070498, 5, 0.05}, {30.577914, 15, 0.01}, {2, 2, math.Exp(-1)}, {0.5, 4, 0.973500}} {
		if got := ChiSquareSF(tt.x, tt.df); !near(got, tt.want, 1e-5) {
			t.Errorf("ChiSquareSF(%v, %d) = %v, want %v", tt.x, tt.df, got, tt.want)
		}
	}
}

func TestChiSquare(t *testing.T) {
	stat, cells := ChiSquare([]float64{10, 20, 30, 5}, []float64{20, 20, 20, 0})
	if stat != 10 || cells != 3 {
		t.Errorf("ChiSquare = %v over %d cells, want 10 over 3", stat, cells)
	}
}

func TestNormalSF(t *testing.T) {
	if got := NormalSF(1.959964); !near(got, 0.025, 1e-6) {
		t.Errorf("NormalSF(1.96) = %v", got)
	}
}

// TestPoissonSF checks the tail against sums of the probabilities.
func TestPoissonSF(t *testing.T) {
	for _, lambda := range []float64{0.01, 0.5, 3, 20} {
		pmf, cdf := math.Exp(-lambda), 0.0
		for k := 0; k < 40; k++ {
			want := 1 - cdf
			if got := PoissonSF(k, lambda); math.Abs(got-want) > 1e-9*math.Max(1, want) && math.Abs(got-want) > 1e-12 {
				t.Errorf("PoissonSF(%d, %g) = %g, want %g", k, lambda, got, want)
			}
			cdf += pmf
			pmf *= lambda / float64(k+1)
		}
	}
	if PoissonSF(0, 5) != 1 || PoissonSF(3, 0) != 0 {
		t.Error("the edges")
	}
}

// binomialTwoSidedPlain is the test by definition: every outcome's
// probability from Lgamma, summed where it is no more than k's.
func binomialTwoSidedPlain(n, k int, p float64) float64 {
	logPMF := func(i int) float64 {
		lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
		return lg(n) - lg(i) - lg(n-i) + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p)
	}
	ref := logPMF(k) + 1e-7
	sum := 0.0
	for i := 0; i <= n; i++ {
		if lp := logPMF(i); lp <= ref {
			sum += math.Exp(lp)
		}
	}
	return math.Min(1, sum)
}

// TestBinomialTwoSidedAgainstPlain: the sum from the mode outward is the
// sum over every outcome, for small and large n, either tail, and odds
// of a spawn of 4 from 1 in 2 to 1 in 100.
func TestBinomialTwoSidedAgainstPlain(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 20, 101, 1000, 4189, 20000} {
		for _, p := range []float64{0.5, 0.1, 0.25, 0.01, 0.9} {
			for _, k := range []int{0, 1, n / 20, n / 10, n / 8, n / 4, n / 2, n - 1, n} {
				got, want := BinomialTwoSided(n, k, p), binomialTwoSidedPlain(n, k, p)
				if want > 1e-250 && !near(got, want, 1e-9*want) || want <= 1e-250 && got > 1e-240 {
					t.Errorf("n %d, k %d, p %g: %g, by definition %g", n, k, p, got, want)
				}
			}
		}
	}
}

// BenchmarkBinomialTwoSided is the value test of a long game's spawns
// (4,189 spawns, 1 in 10 a 4), from the mode outward and by definition.
func BenchmarkBinomialTwoSided(b *testing.B) {
	b.Run("outward", func(b *testing.B) {
		for b.Loop() {
			BinomialTwoSided(4189, 430, 0.1)
		}
	})
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			binomialTwoSidedPlain(4189, 430, 0.1)
		}
	})
}
