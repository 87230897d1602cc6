package conformance

import (
	"errors"
	"fmt"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// oneMergeName is the property that loads full boards with exactly one
// possible merge, at every position.
const oneMergeName = "one-merge-full-boards"

// oneMergeBoards returns the full boards of rows x cols with no merge (the
// first) and then one for each pair of neighbours, across a row or down a
// column, edges included, whose two tiles alone are equal: no two other
// neighbours are. The tiles are 2 to 32, no two neighbours equal; the
// pair is two 128s, a tile no other cell holds.
func oneMergeBoards(rows, cols int) []engine.Board {
	base, _ := engine.NewBoard(rows, cols)
	for r := range rows {
		for c := range cols {
			// Neighbours across a row differ by 2 (mod 5), down a column by 1.
			base.Set(r, c, 2<<((r+2*c)%5))
		}
	}
	out := []engine.Board{base}
	for r := range rows {
		for c := range cols {
			for _, n := range [][2]int{{r, c + 1}, {r + 1, c}} {
				if n[0] >= rows || n[1] >= cols {
					continue
				}
				b := base
				b.Set(r, c, 128)
				b.Set(n[0], n[1], 128)
				out = append(out, b)
			}
		}
	}
	return out
}

// oneMergeSizes returns the board sizes the check loads under profile p:
// the profile's own, and every other the implementation declares under it
// (size:RxC).
func oneMergeSizes(h Hello, p *engine.Profile) [][2]int {
	sizes := [][2]int{{p.Rows, p.Cols}}
	for r := engine.MinSide; r <= engine.MaxSide; r++ {
		for c := engine.MinSide; c <= engine.MaxSide; c++ {
			if (r != p.Rows || c != p.Cols) && h.hasUnder(p.Name, protocol.SizeFeature(r, c)) {
				sizes = append(sizes, [2]int{r, c})
			}
		}
	}
	return sizes
}

// oneMergeFullBoards loads every board of [oneMergeBoards] for every size
// of [oneMergeSizes] and checks what the implementation says of it
// against the rules: over and the result, and the legal moves (when it
// lists them). A full board whose one merge lies in an edge row or column
// is where an implementation that looks at part of the board goes wrong.
func oneMergeFullBoards(impl Impl, h Hello, p *engine.Profile, res *CaseResult, alpha float64) {
	lister, lists := impl.(LegalLister)
	for _, size := range oneMergeSizes(h, p) {
		// The profile's rules on the board's size, as a case on a board
		// of another size plays.
		q := p.Clone()
		q.Rows, q.Cols = size[0], size[1]
		rules, err := engine.Compile(q)
		if err != nil {
			res.fail(ProtocolError, 0, "profile %s on %dx%d: %v", p.Name, size[0], size[1], err)
			return
		}
		for _, b := range oneMergeBoards(size[0], size[1]) {
			want, err := rules.Load(engine.State{Board: b})
			if err != nil {
				res.fail(ProtocolError, 0, "the rules refuse the board: %v", err)
				return
			}
			got, err := impl.(Loader).Load(p.Name, LoadState{Board: b})
			if err != nil {
				res.callFailed(err, 0, "load")
				return
			}
			if got.Over != want.Over() || got.Result != "" && got.Result != resultName(want.Result()) {
				res.failOn(FlagsDiffer, &b, nil, "on the full %dx%d board loaded, with %s, the implementation says over %v, result %q; the rules give over %v, %s",
					size[0], size[1], mergesIn(b), got.Over, got.Result, want.Over(), resultName(want.Result()))
				return
			}
			if !lists {
				continue
			}
			legal, err := lister.Legal()
			if errors.Is(err, ErrNoLegal) { // a driver wraps it with the request
				lists = false
				continue
			}
			if err != nil {
				res.callFailed(err, 0, "legal")
				return
			}
			if w := want.LegalMoves(); !sameDirections(legal, w) {
				res.failOn(LegalityDiffer, &b, nil, "on the full %dx%d board loaded, with %s, the implementation lists the legal moves %v; the rules give %v",
					size[0], size[1], mergesIn(b), legal, w)
				return
			}
		}
	}
}

// resultName is a result's word in the protocol.
func resultName(r engine.Result) string {
	text, _ := r.MarshalText()
	return string(text)
}

// mergesIn says where a board's one merge is, for messages.
func mergesIn(b engine.Board) string {
	for r := range b.Rows() {
		for c := range b.Cols() {
			if c+1 < b.Cols() && b.At(r, c) == b.At(r, c+1) {
				return fmt.Sprintf("one merge, row %d columns %d and %d", r+1, c+1, c+2)
			}
			if r+1 < b.Rows() && b.At(r, c) == b.At(r+1, c) {
				return fmt.Sprintf("one merge, column %d rows %d and %d", c+1, r+1, r+2)
			}
		}
	}
	return "no merge"
}
