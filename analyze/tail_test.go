package analyze

import (
	"encoding/json"
	"math"
	"testing"
)

// TestTailZ holds the model's tail to the normal approximation where that
// is good (many moves, no spread), and keeps it finite at the ends.
func TestTailZ(t *testing.T) {
	const n, p = 10000, 0.3
	mu := math.Log(p / (1 - p))
	sd := math.Sqrt(n * p * (1 - p))
	for _, want := range []float64{-2, 0, 1, 3, 5} {
		k := int(math.Round(n*p + want*sd))
		if got := tailZ(k, n, mu, 1e-9, true); math.Abs(got-want) > 0.1 {
			t.Errorf("k = %d of %d at rate %.1f: z = %.3f, want about %.1f", k, n, p, got, want)
		}
		k = int(math.Round(n*p - want*sd))
		if got := tailZ(k, n, mu, 1e-9, false); math.Abs(got-want) > 0.1 {
			t.Errorf("k = %d of %d at rate %.1f, the low side: z = %.3f, want about %.1f", k, n, p, got, want)
		}
	}
	// A spread between games widens the tail: the same count is less rare.
	if narrow, wide := tailZ(3300, n, mu, 0.01, true), tailZ(3300, n, mu, 0.3, true); wide >= narrow {
		t.Errorf("spread 0.3 gives z %.2f, spread 0.01 %.2f: want the wider spread lower", wide, narrow)
	}
	// Every move agreeing, or none, is far out but finite (a JSON number).
	for _, c := range []struct {
		k    int
		high bool
	}{{n, true}, {0, false}} {
		z := tailZ(c.k, n, mu, 0.4, c.high)
		if math.IsInf(z, 0) || math.IsNaN(z) || z < 8 {
			t.Errorf("k = %d of %d (high %v): z = %v, want finite and far out", c.k, n, c.high, z)
		}
		if _, err := json.Marshal(z); err != nil {
			t.Error(err)
		}
	}
	// The other end, the side away from the evaluators (no agreement at
	// all; every move a large error), is far out and finite too, and the
	// two sides mirror each other: P(k or more) = 1 - P(k-1 or fewer), so
	// z(k, high) = -z(k-1, low), to a precision a chance near 1 does not
	// hold.
	for _, n := range []int{100, 150, 1000, 5000} {
		for _, k := range []int{0, 1, 2, n / 10, n / 2, n - 1, n} {
			z := tailZ(k, n, 0, 0.4, true)
			if math.IsInf(z, 0) || math.IsNaN(z) {
				t.Errorf("k = %d of %d (high): z = %v, want finite", k, n, z)
				continue
			}
			if k == 0 && z > -8 {
				t.Errorf("k = 0 of %d (high): z = %v, want far below 0", n, z)
			}
			if k > 0 {
				if m := tailZ(k-1, n, 0, 0.4, false); math.Abs(z+m) > 0.01 {
					t.Errorf("n = %d: z(%d, high) = %.4f, z(%d, low) = %.4f: want opposite", n, k, z, k-1, m)
				}
			}
		}
		if z := tailZ(n, n, 0, 0.4, false); math.IsInf(z, 0) || math.IsNaN(z) || z > -8 {
			t.Errorf("k = %d of %d (low): z = %v, want finite and far below 0", n, n, z)
		}
	}
	// A spread so wide that the rates' log-odds at the model's ends
	// overflow a float (a reference file's floor of 1e300) gives a number,
	// not NaN: the power 0 of a rate of 0 is 1.
	for _, k := range []int{0, 1, n / 2, n} {
		for _, high := range []bool{true, false} {
			if z := tailZ(k, n, mu, 1e300, high); math.IsNaN(z) || math.IsInf(z, 0) {
				t.Errorf("k = %d of %d (high %v), spread 1e300: z = %v", k, n, high, z)
			}
		}
	}
}

// TestNormalUpperQuantile holds the far tail's approximation to the exact
// quantile where they meet, and to known values beyond.
func TestNormalUpperQuantile(t *testing.T) {
	for _, c := range []struct{ chance, z float64 }{
		{0.5, 0}, {0.02275, 2}, {0.0013499, 3}, {2.8665e-7, 5}, {1.2798e-12, 7}, {7.6199e-24, 10},
	} {
		if got := normalUpperQuantile(c.chance); math.Abs(got-c.z) > 0.01 {
			t.Errorf("normalUpperQuantile(%g) = %.4f, want %.2f", c.chance, got, c.z)
		}
	}
	if got := normalUpperQuantile(0); math.IsInf(got, 0) || got < 30 {
		t.Errorf("normalUpperQuantile(0) = %v, want finite and far out", got)
	}
}
