package replay

import (
	"fmt"
	"strings"
	"testing"
)

// TestSummaryBestSuspicious: when the best verified score is a
// suspicious replay's (valid, with spawn warnings), the summary line says
// so and names the best of the replays without warnings, whichever comes
// first; before, it named the suspicious game alone as the best, which a
// leaderboard reading the line would crown, while the batch report's top
// scores leave it out.
func TestSummaryBestSuspicious(t *testing.T) {
	warned := []string{"the spawns favour some cells (cell test p = 1e-20)"}
	clean1 := Verdict{Name: "a.yaml", Valid: true, Replayed: true, Score: 500}
	clean2 := Verdict{Name: "b.yaml", Valid: true, Replayed: true, Score: 800}
	sus := Verdict{Name: "fours.yaml", Valid: true, Replayed: true, Score: 1000, Warnings: warned}
	low := Verdict{Name: "low.yaml", Valid: true, Replayed: true, Score: 100, Warnings: warned}
	bad := Verdict{Name: "bad.yaml", Reason: ClaimScore, Replayed: true, Score: 5000}
	for _, c := range []struct {
		in   []Verdict
		want string
	}{
		{[]Verdict{clean1, sus, clean2}, "; best verified score 1000 (fours.yaml), suspicious; best without warnings 800 (b.yaml)\n"},
		{[]Verdict{sus, clean2, clean1}, "; best verified score 1000 (fours.yaml), suspicious; best without warnings 800 (b.yaml)\n"},
		{[]Verdict{clean2, sus, clean1, bad}, "; best verified score 1000 (fours.yaml), suspicious; best without warnings 800 (b.yaml)\n"},
		{[]Verdict{sus}, "; best verified score 1000 (fours.yaml), suspicious\n"},
		{[]Verdict{clean1, low, clean2}, "; best verified score 800 (b.yaml)\n"},
		{[]Verdict{low, clean1}, "; best verified score 500 (a.yaml)\n"},
		{[]Verdict{sus.Strict(), clean1}, "; best verified score 500 (a.yaml)\n"},
	} {
		var s Summary
		var names []string
		for _, vd := range c.in {
			s.Add(vd)
			names = append(names, vd.Name)
		}
		var b strings.Builder
		s.Write(&b)
		if !strings.HasSuffix(b.String(), c.want) {
			t.Errorf("%v: %q, want it to end %q", names, b.String(), c.want)
		}
	}
}

// TestSummaryRepeats: the summary line counts the legal games (valid,
// suspicious, failed by --strict alone) whose game as played is that of
// one counted before them, and says nothing of it when there is none;
// an invalid replay is not counted, though a false claim's carries the
// game's gameSha256: the line counts the games a leaderboard would list
// twice, and the report ties the copies. Before 2026-12-07 the terminal said nothing of a game
// submitted twice under two names.
func TestSummaryRepeats(t *testing.T) {
	a, b := strings.Repeat("ab", 32), strings.Repeat("cd", 32)
	warned := []string{"the spawns favour some cells"}
	v := func(name, sha string, warnings []string) Verdict {
		return Verdict{Name: name, Valid: true, Replayed: true, Score: 4, GameSHA256: sha, Warnings: warnings}
	}
	for _, c := range []struct {
		in   []Verdict
		want string
	}{
		{[]Verdict{v("1", a, nil), v("2", b, nil)}, ""},
		{[]Verdict{v("1", a, nil), v("2", b, nil), v("3", a, nil)}, "; 1 repeats a game earlier in the batch (the same gameSha256)"},
		{[]Verdict{v("1", a, nil), v("2", a, warned), v("3", a, warned).Strict(), v("4", b, nil)}, "; 2 repeat a game earlier in the batch (the same gameSha256)"},
		{[]Verdict{v("1", a, nil), {Name: "2", Reason: ClaimScore, GameSHA256: a}, {Name: "3", Reason: Malformed}}, ""},
	} {
		var s Summary
		for _, vd := range c.in {
			s.Add(vd)
		}
		var w strings.Builder
		s.Write(&w)
		got := w.String()
		if c.want == "" && strings.Contains(got, "repeat") || c.want != "" && !strings.Contains(got, c.want+"; best verified score") {
			t.Errorf("%q, want %q before the best score", got, c.want)
		}
	}
}

// TestSummaryRepeatsBounded: the games kept to find repeats stop at
// maxSummaryGames, whatever the batch's length; a repeat of a game kept
// is still counted past it, and the line says where the looking stopped.
func TestSummaryRepeatsBounded(t *testing.T) {
	var s Summary
	for i := range maxSummaryGames + 10 {
		s.Add(Verdict{Name: "g", Valid: true, Replayed: true, Score: 4, GameSHA256: fmt.Sprintf("%016x%048x", i, 0)})
	}
	s.Add(Verdict{Name: "again", Valid: true, Replayed: true, Score: 4, GameSHA256: fmt.Sprintf("%016x%048x", 3, 0)})
	if len(s.games) != maxSummaryGames || s.repeats != 1 {
		t.Errorf("%d games kept, %d repeats; want %d and 1", len(s.games), s.repeats, maxSummaryGames)
	}
	var w strings.Builder
	s.Write(&w)
	if want := fmt.Sprintf("; 1 repeats a game earlier in the batch (the same gameSha256); repeats looked for among the first %d games only; best", maxSummaryGames); !strings.Contains(w.String(), want) {
		t.Errorf("%q, want %q", w.String(), want)
	}
}
