package conformance

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// partialLook is the engine judging a full board by its cells off the
// last row and the last column only (the survivor): a full board
// whose one merge lies in the last row or column is over to it, with no
// legal move.
type partialLook struct {
	*Builtin
	board engine.Board
}

func (p *partialLook) Load(profile string, st LoadState) (ImplState, error) {
	s, err := p.Builtin.Load(profile, st)
	p.board = s.Board
	if err == nil && p.stuck() {
		s.Over, s.Result = true, "no-moves"
	}
	return s, err
}

func (p *partialLook) Legal() ([]engine.Direction, error) {
	if p.stuck() {
		return nil, nil
	}
	return p.Builtin.Legal()
}

// stuck reports whether the board is full with no merge among the cells
// it looks at.
func (p *partialLook) stuck() bool {
	b := p.board
	if b.Empty() > 0 {
		return false
	}
	for r := range b.Rows() - 1 {
		for c := range b.Cols() - 1 {
			if b.At(r, c) == b.At(r, c+1) || b.At(r, c) == b.At(r+1, c) {
				return false
			}
		}
	}
	return true
}

// TestOneMergeBoards: every pair of neighbours gets a board, full, with
// exactly that one merge.
func TestOneMergeBoards(t *testing.T) {
	for _, size := range [][2]int{{2, 2}, {3, 5}, {4, 4}, {8, 8}} {
		bs := oneMergeBoards(size[0], size[1])
		pairs := size[0]*(size[1]-1) + size[1]*(size[0]-1)
		if len(bs) != 1+pairs {
			t.Errorf("%v: %d boards, want %d", size, len(bs), 1+pairs)
		}
		for i, b := range bs {
			if b.Empty() != 0 {
				t.Fatalf("%v board %d is not full:\n%v", size, i, b)
			}
			if got := len(b.LegalMoves()); i == 0 && got != 0 || i > 0 && got != 2 {
				t.Errorf("%v board %d (%s): legal %v\n%v", size, i, mergesIn(b), b.LegalMoves(), b)
			}
		}
	}
}

// TestOneMergeCatchesPartialLook: the property passes the engine and
// fails an implementation that ignores the last row and column, on a
// board whose one merge is there.
func TestOneMergeCatchesPartialLook(t *testing.T) {
	if res := runProperty(t, &Builtin{}, oneMergeName); res.Status != Pass {
		t.Fatalf("the engine: %s: %s", res.Status, res.Reason)
	}
	res := runProperty(t, &partialLook{Builtin: &Builtin{}}, oneMergeName)
	if res.Status != FlagsDiffer || !strings.Contains(res.Reason, "one merge") || res.Start == nil {
		t.Fatalf("partialLook: %s: %s", res.Status, res.Reason)
	}
	t.Logf("partialLook: %s", res.Reason)
}

// noLegalList is the engine behind a driver whose implementation answers
// legal with unsupported-op: the driver returns ErrNoLegal wrapped with
// the request, as conformance/driver does.
type noLegalList struct{ *Builtin }

func (noLegalList) Legal() ([]engine.Direction, error) {
	return nil, fmt.Errorf("legal (request 7): %w (no legal here)", ErrNoLegal)
}

// TestOneMergeWithoutLegal: an implementation that does not list legal
// moves, which protocol.md allows, passes the property (its legal moves
// go unchecked), as it passes the cases.
func TestOneMergeWithoutLegal(t *testing.T) {
	if res := runProperty(t, noLegalList{&Builtin{}}, oneMergeName); res.Status != Pass {
		t.Fatalf("%s: %s", res.Status, res.Reason)
	}
}

// TestLegalUnlistedSaid: a run against an implementation that does not
// list legal moves passes the cases that state them, and its text report
// says they were not compared; a run against one that lists them does
// not say so. Under rosetta, whose steps are compared under two readings
// of the win (winThen unstated), too.
func TestLegalUnlistedSaid(t *testing.T) {
	const said = "the legal moves the cases state were not compared: the implementation does not list them"
	for _, profile := range []string{"classic", "rosetta"} {
		for _, tc := range []struct {
			impl Impl
			said bool
		}{{noLegalList{&Builtin{}}, true}, {&Builtin{}, false}} {
			rep, err := Run(t.Context(), loadRepoPack(t), tc.impl, Options{Profiles: []string{profile}, Run: regexp.MustCompile(`^core/full-board-vertical-pair-playable$`)})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 || rep.Results[0].Status != Pass {
				t.Fatalf("%s, %T: %+v", profile, tc.impl, rep.Results)
			}
			var b bytes.Buffer
			rep.WriteText(&b, false)
			if got := strings.Contains(b.String(), said); got != tc.said {
				t.Errorf("%s, %T: the report says the legal moves were not compared: %v, want %v\n%s", profile, tc.impl, got, tc.said, b.String())
			}
			// The JSON report marks the result, and a report read back
			// says it as the run did.
			b.Reset()
			if err := rep.WriteJSON(&b); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(b.String(), `"legalUncompared": true`); got != tc.said {
				t.Errorf("%s, %T: the JSON report marks legalUncompared: %v, want %v", profile, tc.impl, got, tc.said)
			}
			back, err := ReadReport(&b)
			if err != nil {
				t.Fatal(err)
			}
			if back.LegalUncompared() != tc.said {
				t.Errorf("%s, %T: the report read back says the legal moves were uncompared: %v, want %v", profile, tc.impl, back.LegalUncompared(), tc.said)
			}
		}
	}
}

// wonFromBoard is the engine reading won off a loaded board (a tile of
// the win tile or more) where the load does not say it: a reading the
// rules leave open, as it differs only on states no game reaches.
type wonFromBoard struct {
	*Builtin
	win uint64
}

func (w wonFromBoard) Load(profile string, ls LoadState) (ImplState, error) {
	ls.Won = ls.Won || ls.Board.MaxTile() >= w.win
	return w.Builtin.Load(profile, ls)
}

// TestOneMergeUnreachableApart: under a variant that wins at 64, the
// full boards of one-merge-full-boards (a pair of 128s, no win) are
// states no game reaches; an implementation that reads won off such a
// board fails the check there, and the failure is reported apart, not
// as the run's (it was the run's before, a false alarm the 2048term pass
// found by reading). At the classic win tile the same implementation
// passes: the boards are reachable, and it reads them as the rules do.
func TestOneMergeUnreachableApart(t *testing.T) {
	for _, tc := range []struct {
		yaml  string
		win   uint64
		apart bool
	}{
		{"name: classic-64\nbase: classic\nwin: {tile: 64, then: stop}\n", 64, true},
		{"name: classic-stop\nbase: classic\nwin: {then: stop}\n", 2048, false},
	} {
		v, err := engine.ParseProfile("v.yaml", []byte(tc.yaml))
		if err != nil {
			t.Fatal(err)
		}
		impl := wonFromBoard{&Builtin{Profiles: []*engine.Profile{v}}, tc.win}
		rep, err := Run(t.Context(), &Pack{}, impl, Options{Profiles: []string{v.Name}, Properties: true, Known: []*engine.Profile{v}, Run: regexp.MustCompile(`^properties/` + oneMergeName + `$`)})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 1 {
			t.Fatalf("%s: %d results", v.Name, len(rep.Results))
		}
		r := rep.Results[0]
		failed, _ := rep.Failures()
		switch {
		case tc.apart && (!r.Status.Failed() || r.Unreachable == "" || len(failed) != 0):
			t.Errorf("%s: %s %q, unreachable %q, %d failures of the run; want a failure apart", v.Name, r.Status, r.Reason, r.Unreachable, len(failed))
		case !tc.apart && r.Status != Pass:
			t.Errorf("%s: %s %q; want a pass", v.Name, r.Status, r.Reason)
		}
	}
}
