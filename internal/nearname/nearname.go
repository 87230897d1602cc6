// Package nearname measures how far a mistyped name is from a known one,
// for the "did you mean" of the command's flags and of the verifier's
// profiles.
package nearname

// Distance is the Levenshtein distance of a and b: the fewest
// insertions, deletions and substitutions of bytes that make one the
// other.
func Distance(a, b string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
