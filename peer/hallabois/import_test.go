package hallabois

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// importVerify converts a recording and verifies the replay as tileproof
// verify verifies a file: written as YAML, read back, and verified under
// the profile it names (given to the verifier when it is not built in).
func importVerify(t testing.TB, file string, data []byte) (*Import, replay.Verdict, error) {
	t.Helper()
	rec, err := Parse(file, data)
	if err != nil {
		t.Fatal(err)
	}
	imp, err := Convert(file, rec)
	if err != nil {
		return nil, replay.Verdict{}, err
	}
	v := replay.NewVerifier()
	if !imp.Builtin {
		if err := v.AddProfile(imp.Profile); err != nil {
			t.Fatal(err)
		}
	}
	vd := v.VerifyFile(file+".yaml", imp.Replay.EncodeYAML(0))
	if vd.Reason.Unreadable() {
		t.Fatalf("the import of %s does not read back: %s\n%s", file, vd.Error, imp.Replay.EncodeYAML(0))
	}
	return imp, vd, nil
}

// tileproofReasons are the verdicts tileproof gives where the peer's rules
// find a second-format game invalid.
var tileproofReasons = map[string]replay.Reason{
	"break-over":      replay.AfterEnd,    // the run ended with no move left
	"no-moves":        replay.AfterEnd,    // likewise
	"no-effect":       replay.IllegalMove, // a move that changes nothing
	"too-many-breaks": replay.BadAction,
	"break-score":     replay.BadAction,
}

// countBreaks returns the breaks in a replay's log.
func countBreaks(r *replay.Replay) int {
	n := 0
	for _, a := range r.Actions {
		if a == engine.Break {
			n++
		}
	}
	return n
}

// TestImportCorpus imports every game of the peer's corpus, verifies it
// with tileproof's engine under the hallabois profile, and checks the
// verdict against the peer's tests (testdata/corpus.yaml) and the plain
// validator: valid or not, the score (the tests' figure where they state
// one, within their bound where they bound it), the breaks, won and over.
func TestImportCorpus(t *testing.T) {
	corpusDir(t) // skips without the corpus (fails when required), once
	for _, g := range corpusGames(t) {
		t.Run(g.File, func(t *testing.T) {
			path, data := corpusFile(t, g.File)
			imp, vd, err := importVerify(t, path, data)
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			res := imp.Result
			t.Logf("tileproof: valid %v %s, score %d, tile %d, %d moves, %d breaks, won %v, over %v, warnings %q; plain validator: valid %v, score %d (at the end %d); notes %v",
				vd.Valid, vd.Reason, vd.Score, vd.MaxTile, vd.Moves, countBreaks(imp.Replay), vd.Won, vd.Over, vd.Warnings, res.Valid, res.Score, res.ScoreEnd, imp.Notes)
			if vd.Valid != g.Valid {
				t.Fatalf("tileproof says valid %v (%s %v); %s says %v", vd.Valid, vd.Reason, vd.Divergence, g.Source, g.Valid)
			}
			if !g.Valid {
				want := tileproofReasons[g.ProblemKind]
				if vd.Reason != want || vd.Divergence.Action != res.Problem.At {
					t.Errorf("tileproof: %s at action %d; the peer's rules: %v, so want %s there", vd.Reason, vd.Divergence.Action, res.Problem, want)
				}
				return
			}
			// The plain validator's score, less the last move a
			// first-format replay leaves out.
			plainScore := res.ScoreEnd - imp.LastMoveScore
			if vd.Score != plainScore {
				t.Errorf("tileproof's score %d; the plain validator's %d", vd.Score, plainScore)
			}
			if g.ScoreEnd != nil && vd.Score != *g.ScoreEnd {
				t.Errorf("tileproof's score %d; %s says %d", vd.Score, g.Source, *g.ScoreEnd)
			}
			if g.ScoreAtMost != nil && vd.Score > *g.ScoreAtMost+res.Margin {
				t.Errorf("tileproof's score %d is above %s's %d + the margin %d", vd.Score, g.Source, *g.ScoreAtMost, res.Margin)
			}
			if g.Breaks != nil && countBreaks(imp.Replay) != *g.Breaks {
				t.Errorf("%d breaks; %s says %d", countBreaks(imp.Replay), g.Source, *g.Breaks)
			}
			if g.Won != nil && vd.Won != *g.Won || g.Over != nil && vd.Over != *g.Over {
				t.Errorf("won %v, over %v; %s says %v, %v", vd.Won, vd.Over, g.Source, deref(g.Won), deref(g.Over))
			}
		})
	}
}

// TestImportRecordings imports the small recordings of testdata: each
// valid one verifies with the plain validator's figures, each invalid
// second-format game fails where the peer's rules fail it, and each
// recording a replay cannot say is a ConvertError at its first entry or
// move that holds it.
func TestImportRecordings(t *testing.T) {
	for _, e := range readManifest(t) {
		t.Run(e.File, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", e.File))
			if err != nil {
				t.Fatal(err)
			}
			imp, vd, err := importVerify(t, e.File, data)
			var want string // the ConvertError expected: "AT KIND"
			switch {
			case strings.HasPrefix(e.File, "v1-") && !e.Valid:
				want = e.Problem // inconsistent by the hallabois validator's own rules
			case len(e.Findings) > 0 && e.File != "v1-4x4-break-after-end.txt":
				want = e.Findings[0]
				if e.File == "v1-3x3-holes.txt" {
					want = "1 spawn-occupied"
				}
			}
			if want != "" {
				var ce *ConvertError
				if !errors.As(err, &ce) || fmt.Sprintf("%d %s", ce.At, ce.Kind) != want || !strings.HasPrefix(ce.Error(), e.File+": ") {
					t.Fatalf("import: %v; want a ConvertError %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			if vd.Valid != e.Valid {
				t.Fatalf("tileproof: valid %v (%s %v); the peer's rules: %v", vd.Valid, vd.Reason, vd.Divergence, e.Valid)
			}
			scoreEnd := e.Score
			if e.ScoreEnd != nil {
				scoreEnd = *e.ScoreEnd
			}
			if !e.Valid {
				at, kind, _ := strings.Cut(e.Problem, " ")
				if want := tileproofReasons[kind]; vd.Reason != want || fmt.Sprint(vd.Divergence.Action) != at || vd.Score != scoreEnd {
					t.Errorf("tileproof: %s at %d, score %d; the peer's rules: %s, score %d", vd.Reason, vd.Divergence.Action, vd.Score, e.Problem, scoreEnd)
				}
				return
			}
			if vd.Score != scoreEnd || vd.Moves != e.Moves || vd.Over != e.Over || vd.Won != e.Won || countBreaks(imp.Replay) != e.Breaks {
				t.Errorf("tileproof: score %d, %d moves, over %v, won %v, %d breaks; want %d, %d, %v, %v, %d",
					vd.Score, vd.Moves, vd.Over, vd.Won, countBreaks(imp.Replay), scoreEnd, e.Moves, e.Over, e.Won, e.Breaks)
			}
			if strings.HasPrefix(e.File, "v2-2x2") && imp.Builtin {
				t.Errorf("a 2x2 profile built in")
			}
		})
	}
}

// TestImportBreakBoards: a first-format break shows as a smaller next
// board; its replay holds a B after the entry it follows, and a recording
// whose board after the break is not the cleared board, or that records
// a board a move and spawn do not give, is refused at that entry.
func TestImportBreakBoards(t *testing.T) {
	data, err := os.ReadFile("testdata/v1-4x4-break.txt")
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := ParseV1("b.txt", data)
	imp, err := Convert("b.txt", &Recording{V1: rec})
	if err != nil {
		t.Fatal(err)
	}
	// Entry 124's move and spawn, then the break: actions 124 and 125.
	if a := imp.Replay.Actions; a[124] != engine.Break || a[123] == engine.Break || countBreaks(imp.Replay) != 1 {
		t.Errorf("the break is not action 125: %s", engine.FormatActions(a[120:128]))
	}
	// The board after the break with a 2 left where it cleared one.
	b := rec.Entries[124].Board
	for i, v := range rec.Entries[123].Board.Cells {
		if v == 2 && b.Cells[i] == 0 && rec.Entries[123].Spawn.Y*4+rec.Entries[123].Spawn.X != i {
			b.Cells[i] = 2
			break
		}
	}
	_, err = Convert("b.txt", &Recording{V1: rec})
	var ce *ConvertError
	if !errors.As(err, &ce) || ce.At != 125 || ce.Kind != "break-board" {
		t.Errorf("a board after the break with a 2 left: %v", err)
	}
}

// TestImportErrors: an import names the file, the entry or move and what.
func TestImportErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"3x3S2.0.2.0.0.0.0.0.0+1,1.2;3:4.0.0.0.2.0.0.0.0+0,2.4;0:4.2.0.0.0.0.2.0.0+;f", "x.txt: entry 3: board: the recording is inconsistent by the hallabois validator's own rules: the board is not what entry 2's move up and its spawn give"},
		{"3x3S2.0.2.0.0.0.0.0.0+1,1.2;3:4.0.0.0.2.0.0.0.0+;0:4.2.0.0.0.0.0.0.0+;f", "x.txt: entry 2: no-spawn: no tile spawns after the move up: the hallabois validator lets it pass, but a tileproof move is followed by the tile that appeared"},
		{"::2:2:2:2:Dw8", "x.txt: move 2: end-spawn: the end marker (digit 0) changes nothing and a tile spawns after it; a tileproof replay has no action that spawns a tile without a move"},
		{"3x3S2.0.2.0.0.0.0.0.0+1,1.2;b:4.0.0.0.2.0.0.0.0+;f", "x.txt: entry 1: break-move"},
	} {
		rec, err := Parse("x.txt", []byte(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Convert("x.txt", rec)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Convert(%q) = %v\nwant %s...", tc.text, err, tc.want)
		}
	}
}

// TestImportEndMarkers: the end markers a second-format game ends with
// are left out with one note, and one between moves with a note of its
// own. (A game invalid at its second move: its end markers are never
// played, so none spawns a tile.)
func TestImportEndMarkers(t *testing.T) {
	const mid = "an end marker (digit 0) that changes nothing is left out; the actions after it are numbered one less"
	for _, tc := range []struct {
		moves   []Dir
		actions string
		notes   []Note
	}{
		{[]Dir{Left, Left, End, Up, End, End}, "LLU", []Note{{3, mid}, {5, "2 end markers (digit 0) after the last move left out"}}},
		{[]Dir{Left, Left, End}, "LL", []Note{{3, "1 end marker (digit 0) after the last move left out"}}},
		{[]Dir{Left, Left, End, Up}, "LLU", []Note{{3, mid}}},
		{[]Dir{Left, Left}, "LL", nil},
	} {
		imp, err := Convert("x.txt", &Recording{V2: &V2{W: 2, H: 2, Seed: 1, Moves: tc.moves}})
		if err != nil {
			t.Fatal(err)
		}
		if got := engine.FormatActions(imp.Replay.Actions); got != tc.actions || !slices.Equal(imp.Notes, tc.notes) {
			t.Errorf("%v: actions %s, notes %v\nwant %s, %v", tc.moves, got, imp.Notes, tc.actions, tc.notes)
		}
	}
}

// TestProfileFor: the built-in profiles are the peer's rulesets, prices
// included, and the profiles made for other boards are the same rules
// on them.
func TestProfileFor(t *testing.T) {
	for _, f := range []Format{FormatV1, FormatV2} {
		rules := &ClassicV2
		if f == FormatV1 {
			rules = &ClassicV1
		}
		for w := MinSide; w <= MaxSide; w++ {
			for h := MinSide; h <= MaxSide; h++ {
				p, builtin, err := ProfileFor(f, w, h)
				if err != nil {
					t.Fatal(err)
				}
				if builtin != (w == h && (w == 3 || w == 4)) {
					t.Errorf("format %d, %dx%d: builtin %v", f, w, h, builtin)
				}
				br := p.Break
				if p.Cols != w || p.Rows != h || br.Price != rules.Cost(w, h) || br.Limit != rules.BreakMax || br.Below != rules.BreakBelow ||
					(br.WhenNoMoves == engine.BreakAllow) != rules.BreakWhenOver || p.Win.Tile != rules.WinTile || p.Validate() != nil {
					t.Errorf("format %d, %dx%d: %s is %dx%d, break %+v", f, w, h, p.Name, p.Cols, p.Rows, br)
				}
			}
		}
	}
	if _, _, err := ProfileFor(FormatV2, 7, 7); err == nil {
		t.Error("a 7x7 profile")
	}
}

// TestImportDifferential plays random second-format games, moves and
// breaks at random (some the rules refuse: a move that changes nothing,
// one after the end, a break without the price, a fourth break, one with
// no move left), on every board the format has, and checks that the
// plain validator and tileproof's engine under the hallabois profile give
// each the same verdict: valid or not, where, the score, the moves, the
// final board, won and over.
func TestImportDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	counts := map[string]int{}
	for game := range 500 {
		w, h := MinSide+rng.IntN(3), MinSide+rng.IntN(3) // 2 to 4: games that end
		switch game % 10 {
		case 0:
			w, h = MinSide+rng.IntN(MaxSide-MinSide+1), MinSide+rng.IntN(MaxSide-MinSide+1)
		case 2, 7: // to the end with the price of a break
			w, h = 3+rng.IntN(2), 3+rng.IntN(2)
		case 4, 9: // four breaks
			w, h = 4+rng.IntN(2), 4+rng.IntN(2)
		}
		rec := &V2{W: w, H: h, Seed: rng.Uint32()}
		// Play the plain way: random legal moves and breaks, and one of
		// five endings, each chosen for a game in five: none (a valid
		// game), a move that changes nothing, an action once no move is
		// left, a break without its price, breaks until one too many.
		fate := game % 5
		b, g := Start(w, h, rec.Seed)
		var score uint64
		cost := ClassicV2.Cost(w, h)
		breaks := 0
		n := 20 + rng.IntN(800)
		if fate == 2 || fate == 4 {
			n = 20000
		}
		for len(rec.Moves) < n {
			var legal, illegal []Dir
			for _, m := range []Dir{Up, Right, Down, Left} {
				if _, _, changed, _ := b.Move(m); changed {
					legal = append(legal, m)
				} else {
					illegal = append(illegal, m)
				}
			}
			var d Dir
			switch {
			case len(legal) == 0:
				if fate == 2 {
					rec.Moves = append(rec.Moves, []Dir{Break, Break, Up, Right, Down, Left}[rng.IntN(6)])
				}
				n = 0
				continue
			case fate == 1 && len(illegal) > 0 && rng.IntN(100) == 0:
				rec.Moves = append(rec.Moves, illegal[rng.IntN(len(illegal))])
				n = 0
				continue
			case fate == 3 && score < cost && rng.IntN(100) == 0:
				d = Break
			case score >= cost && (fate == 4 || fate != 2 && breaks < 3 && b.Empty() <= 1 && rng.IntN(3) == 0):
				d = Break
			case rng.IntN(4) == 0:
				d = legal[rng.IntN(len(legal))]
			default: // the move that scores most: longer games
				var best uint64
				d = legal[0]
				for _, m := range legal {
					if _, gain, _, _ := b.Move(m); gain > best {
						d, best = m, gain
					}
				}
			}
			rec.Moves = append(rec.Moves, d)
			if d == Break {
				if score < cost || breaks == 3 {
					n = 0 // refused: the game is over for the peer's rules
					continue
				}
				score -= cost
				breaks++
				b = ClassicV2.clearBelow(b)
				continue
			}
			next, gain, _, _ := b.Move(d)
			b, score = next, score+gain
			g.Spawn(b)
		}
		// Read back from the format, as an import reads a file.
		text := rec.String()
		imp, vd, err := importVerify(t, fmt.Sprint("game-", game), []byte(text))
		if err != nil {
			t.Fatalf("game %d (%s): %v", game, text, err)
		}
		res := imp.Result
		kind := "valid"
		if !res.Valid {
			kind = res.Problem.Kind
		}
		counts[kind]++
		where := fmt.Sprintf("game %d, %dx%d seed %d, %d moves (%s)", game, w, h, rec.Seed, len(rec.Moves), kind)
		if vd.Valid != res.Valid {
			t.Fatalf("%s: tileproof valid %v (%s %v), the plain validator %v (%v)", where, vd.Valid, vd.Reason, vd.Divergence, res.Valid, res.Problem)
		}
		// A break refused for more than one reason: tileproof names the end
		// of the run first, the peer its count and its price.
		sameReason := vd.Reason == tileproofReasons[kind] || vd.Reason == replay.AfterEnd && res.Over && (kind == "break-score" || kind == "too-many-breaks")
		if !res.Valid && (!sameReason || vd.Divergence.Action != res.Problem.At) {
			t.Fatalf("%s: tileproof %s at %d, the plain validator %v", where, vd.Reason, vd.Divergence.Action, res.Problem)
		}
		final, _ := engineBoard(res.Board)
		got := fmt.Sprint(vd.Score, vd.Moves, vd.MaxTile, vd.Won, vd.Over)
		want := fmt.Sprint(res.ScoreEnd, res.Moves, final.MaxTile(), res.Won, res.Over)
		if !res.Valid {
			got, want = fmt.Sprint(vd.Score, vd.Moves), fmt.Sprint(res.ScoreEnd, res.Moves)
		}
		if got != want {
			t.Fatalf("%s: tileproof score, moves, tile, won, over %s; the plain validator %s", where, got, want)
		}
	}
	t.Logf("verdicts: %v", counts)
	for _, kind := range []string{"valid", "no-effect", "break-score", "break-over", "no-moves", "too-many-breaks"} {
		if counts[kind] < 10 {
			t.Errorf("only %d games of kind %s", counts[kind], kind)
		}
	}
}

// TestImportDifferentialV1 plays random first-format games with breaks on
// the 2x2 to 6x6 boards (by the plain generator and rules), imports and
// verifies them: valid, with the plain validator's score; and with one
// entry's board changed, refused at that entry as the plain validator
// refuses it.
func TestImportDifferentialV1(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	for game := range 150 {
		side := MinSide + rng.IntN(MaxSide-MinSide+1)
		when := rng.IntN(3)
		steps, final := playGame(side, side, rng.Uint32(), &ClassicV1, 20+rng.IntN(400), func(b Grid, score uint64, breaks int) bool {
			return breaks < 3 && score >= 1000 && (when == 0 && b.Empty() <= 1 || when == 1 && !b.HasMoves())
		})
		rec := toV1(side, side, steps, final)
		text := rec.String()
		imp, vd, err := importVerify(t, fmt.Sprint("game-", game), []byte(text))
		where := fmt.Sprintf("game %d, %dx%d, %d entries", game, side, side, len(rec.Entries))
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if !vd.Valid || vd.Score != imp.Result.ScoreEnd || countBreaks(imp.Replay) != imp.Result.Breaks {
			t.Fatalf("%s: tileproof valid %v (%s %v), score %d, %d breaks; the plain validator %d, %d breaks", where, vd.Valid, vd.Reason, vd.Divergence, vd.Score, countBreaks(imp.Replay), imp.Result.ScoreEnd, imp.Result.Breaks)
		}
		if len(rec.Entries) < 3 {
			continue
		}
		// A tile of one entry's board doubled.
		e := 1 + rng.IntN(len(rec.Entries)-1)
		cells := rec.Entries[e].Board.Cells
		for i := range cells {
			if cells[i] != 0 {
				cells[i] *= 2
				break
			}
		}
		res := ValidateV1(rec)
		_, _, err = importVerify(t, "changed", []byte(rec.String()))
		var ce *ConvertError
		if res.Valid || !errors.As(err, &ce) || ce.At != res.Problem.At || ce.At > e+1 {
			t.Fatalf("%s, entry %d changed: import %v; the plain validator %v", where, e+1, err, res.Problem)
		}
	}
}

// BenchmarkImportLongest imports and verifies the corpus's longest game,
// GAME4X4BIG (4,276 entries, 243 KB): the whole (read, convert, write
// the replay, verify the file), and each step alone.
func BenchmarkImportLongest(b *testing.B) {
	path, data := corpusFile(b, "v1", "GAME4X4BIG.txt")
	rec, err := Parse(path, data)
	if err != nil {
		b.Fatal(err)
	}
	imp, err := Convert(path, rec)
	if err != nil {
		b.Fatal(err)
	}
	file := imp.Replay.EncodeYAML(0)
	v := replay.NewVerifier()
	verified := func(file []byte) error {
		if vd := v.VerifyFile(path, file); !vd.Valid {
			return errors.New(string(vd.Reason))
		}
		return nil
	}
	benchStages(b,
		stage{"all", func() error {
			rec, err := Parse(path, data)
			if err != nil {
				return err
			}
			imp, err := Convert(path, rec)
			if err != nil {
				return err
			}
			return verified(imp.Replay.EncodeYAML(0))
		}},
		stage{"read", func() error { _, err := Parse(path, data); return err }},
		stage{"convert", func() error { _, err := Convert(path, rec); return err }},
		stage{"verify", func() error { return verified(file) }})
}

// FuzzConvert imports any text: it never panics; a recording that reads is
// refused with a ConvertError or becomes a replay that reads back; and a
// second-format one gets from tileproof the plain validator's verdict.
func FuzzConvert(f *testing.F) {
	for _, e := range []string{"v1-3x3.txt", "v1-3x3-holes.txt", "v2-2x2.txt", "v2-2x2-end-digit.txt", "v2-3x3-break.txt"} {
		data, err := os.ReadFile(filepath.Join("testdata", e))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("::2:5:3:7:MSU3EwwpGzQ")
	f.Add("2x2S2.2.0.0+0,1.2;3:4.0.2.0+;f")
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := Parse("f.txt", []byte(text))
		if err != nil {
			return
		}
		imp, err := Convert("f.txt", rec)
		if err != nil {
			var ce *ConvertError
			if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), "f.txt: ") {
				t.Fatalf("Convert: %v (%T)", err, err)
			}
			return
		}
		v := replay.NewVerifier()
		if !imp.Builtin {
			if err := v.AddProfile(imp.Profile); err != nil {
				t.Fatal(err)
			}
		}
		vd := v.VerifyFile("f.yaml", imp.Replay.EncodeYAML(0))
		if vd.Reason.Unreadable() {
			t.Fatalf("the replay does not read back: %s", vd.Error)
		}
		if rec.V2 != nil && vd.Valid != imp.Result.Valid {
			t.Fatalf("tileproof valid %v (%s %v), the plain validator %v (%v)", vd.Valid, vd.Reason, vd.Divergence, imp.Result.Valid, imp.Result.Problem)
		}
		if rec.V1 != nil && !vd.Valid {
			t.Fatalf("an imported first-format game fails: %s %v", vd.Reason, vd.Divergence)
		}
	})
}
