package analyze

import "math"

// tailZ places a count of k in n moves against the reference players'
// model: each game's rate is drawn with log-odds normal about mu with
// spread tau, and its count is binomial at that rate. It returns the
// chance that such a game is at least as far out as k on the atypical
// side (k or more when high, k or fewer when not), as the z of a normal
// tail of the same chance: 3 is as rare as a normal's three sigma. Where
// that chance is above one half, the z is computed from the other side's
// chance, 1 minus it, which is small and exact where the chance itself
// rounds to 1: a game far out on the side away from the evaluators (no
// agreement at all, every move a large error) gets a finite z far below
// 0, not -Inf.
func tailZ(k, n int, mu, tau float64, high bool) float64 {
	logChoose := make([]float64, n+1)
	lgN, _ := math.Lgamma(float64(n + 1))
	for j := range logChoose {
		a, _ := math.Lgamma(float64(j + 1))
		b, _ := math.Lgamma(float64(n - j + 1))
		logChoose[j] = lgN - a - b
	}
	step := -1 // the low side: k, k-1, ..., 0
	if high {
		step = 1 // k, k+1, ..., n
	}
	if chance := mixedTail(logChoose, k, step, mu, tau); chance <= 0.5 {
		return normalUpperQuantile(chance)
	}
	// The other side: k-1 or fewer when high, k+1 or more when not.
	return -normalUpperQuantile(mixedTail(logChoose, k-step, -step, mu, tau))
}

// mixedTail returns the chance, under the model (a rate's log-odds normal
// about mu with spread tau, the count binomial at that rate, logChoose the
// log binomial coefficients of n), that the count is k or beyond in the
// direction of step (+1 up to n, -1 down to 0); 0 when k is past the end.
func mixedTail(logChoose []float64, k, step int, mu, tau float64) float64 {
	const nodes, width = 121, 6.0 // the spread's normal, to six sigma
	n := len(logChoose) - 1
	end := -1
	if step > 0 {
		end = n + 1
	}
	if k < 0 || k > n {
		return 0
	}
	var tail, weights float64
	for i := range nodes {
		u := -width + 2*width*float64(i)/float64(nodes-1)
		w := math.Exp(-u * u / 2)
		x := mu + tau*u
		logP, logQ := -math.Log1p(math.Exp(-x)), -math.Log1p(math.Exp(x))
		// The terms rise to the mode and fall after it: past the mode,
		// the sum stops when a term no longer changes it.
		mode := float64(n) * math.Exp(logP)
		sum := 0.0
		for j := k; j != end; j += step {
			// A rate's log-odds far out (a wide spread) makes logP or
			// logQ -Inf: its power 0 is 1, not 0 times -Inf.
			e := logChoose[j]
			if j > 0 {
				e += float64(j) * logP
			}
			if j < n {
				e += float64(n-j) * logQ
			}
			term := math.Exp(e)
			sum += term
			if (float64(j)-mode)*float64(step) > 0 && term <= sum*1e-17 {
				break
			}
		}
		tail += w * min(sum, 1)
		weights += w
	}
	return tail / weights
}

// normalUpperQuantile returns the z whose normal upper tail is chance:
// math.Erfcinv where it is exact, and below a chance of 1e-10, where
// 1-2*chance rounds, Abramowitz and Stegun's 26.2.23 (an error below
// 0.00045); a chance of 0 is taken as the smallest float's.
func normalUpperQuantile(chance float64) float64 {
	if chance >= 1e-10 {
		return math.Sqrt2 * math.Erfcinv(2*min(chance, 1))
	}
	t := math.Sqrt(-2 * math.Log(max(chance, math.SmallestNonzeroFloat64)))
	return t - (2.515517+0.802853*t+0.010328*t*t)/(1+1.432788*t+0.189269*t*t+0.001308*t*t*t)
}
