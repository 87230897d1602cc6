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
