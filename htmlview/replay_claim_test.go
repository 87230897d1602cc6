package htmlview

import (
	"strings"
	"testing"
)

// TestReplayHeadlineClaim: the headline of a page whose moves keep the
// rules to the end but whose claim is false (claim-score, and an
// impossible claim on a game of the rules) says the claim is false, not
// that the game leaves the rules, and its divergence's data says so for
// the moments' list; a game whose moves leave the rules, an impossible
// claim on one among them, keeps "before it leaves the rules", and a
// valid game has neither. Before 2026-12-07 a claim-score page read "N
// points ... before it leaves the rules", though its moves never leave
// them.
func TestReplayHeadlineClaim(t *testing.T) {
	brokenImpossible := load(t, "tampered/move-changed.yaml")
	brokenImpossible.Replay.Claim.Score += 2
	brokenImpossible = decodeGame(t, "move-changed, score not a multiple of 4", brokenImpossible.Replay.EncodeJSON())
	for _, c := range []struct {
		name  string
		g     TracedReplay
		head  string
		claim bool
	}{
		{"claim-score", load(t, "tampered/score-raised.yaml"), "by the rules; the claim is false", true},
		{"impossible-claim, the moves a game of the rules", load(t, "tampered/score-raised-with-board.yaml"), "by the rules; the claim is false", true},
		{"claim-moves", load(t, "tampered/move-count-changed.yaml"), "by the rules; the claim is false", true},
		{"illegal-move", load(t, "tampered/move-changed.yaml"), "before it leaves the rules", false},
		{"impossible-claim, the moves breaking the rules", brokenImpossible, "before it leaves the rules", false},
		{"valid", load(t, "valid/tile-merge-2048.yaml"), "", false},
	} {
		html := page(t, c.g)
		i, j := strings.Index(html, `<h1 id="headline">`), strings.Index(html, "</h1>")
		if i < 0 || j < i {
			t.Fatalf("%s: no headline", c.name)
		}
		head := textOf(html[i:j])
		for _, words := range []string{"by the rules; the claim is false", "before it leaves the rules"} {
			if strings.Contains(head, words) != (words == c.head) {
				t.Errorf("%s (%s): the headline %q", c.name, c.g.Verdict.Reason, head)
			}
		}
		d := embedded(t, html)
		if (d.Div != nil && d.Div.Claim) != c.claim {
			t.Errorf("%s: the divergence's data %+v, want claim %v", c.name, d.Div, c.claim)
		}
	}
}

// TestBrowserClaimMoment: the moments' list names a false claim on moves
// that keep the rules as the claim's ("the claim is false: claim-score"),
// and a divergence from the rules as before ("leaves the rules:
// illegal-move"). Before 2026-12-07 a false claim's moment read "leaves
// the rules".
func TestBrowserClaimMoment(t *testing.T) {
	t.Parallel()
	in := tab(t)
	for name, want := range map[string]string{
		"tampered/score-raised.yaml":            "the claim is false: claim-score",
		"tampered/score-raised-with-board.yaml": "the claim is false: impossible-claim",
		"tampered/illegal-move-inserted.yaml":   "leaves the rules: illegal-move",
	} {
		ctx := openIn(t, in, page(t, load(t, name)), 0, 0, "", "#board .c")
		list := eval[string](t, ctx, `document.getElementById("moments").textContent`)
		if !strings.Contains(list, want) || strings.Count(list, "the claim is false")+strings.Count(list, "leaves the rules") != 1 {
			t.Errorf("%s: the moments %q, want %q once", name, list, want)
		}
	}
}
