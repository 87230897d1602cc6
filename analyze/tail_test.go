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
