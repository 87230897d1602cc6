package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tileproof/tileproof/internal/plain"
)

func customProfile(t testing.TB, yaml string) *Profile {
	t.Helper()
	p, err := ParseProfile("test.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func plainWeights(p *Profile) []plain.Weight {
	var w []plain.Weight
	for _, s := range p.Spawn {
		w = append(w, plain.Weight{Value: s.Value, Weight: s.Weight})
	}
	return w
}

// TestGameDifferential plays whole random games with the engine and with
// the plain implementation side by side, on the packed 4x4 path and on
// generic boards, and compares every step.
func TestGameDifferential(t *testing.T) {
	profiles := []*Profile{
		mustProfile(t, "tile-merge"),
		customProfile(t, "name: wide\nbase: classic\nrows: 3\ncols: 6\nwin: {tile: 0, when: reach, then: continue}\n"),
		customProfile(t, "name: eights\nbase: pgs\nspawn: {2: 5, 4: 3, 8: 2}\nstartTiles: 3\nwin: {tile: 65536}\n"),
		customProfile(t, "name: tiny\nbase: pgs\nrows: 2\ncols: 2\n"),
		customProfile(t, "name: big\nbase: pgs\nrows: 8\ncols: 8\nstartTiles: 5\n"),
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, p := range profiles {
		for game := range 20 {
			seed := fmt.Sprintf("diff-%s-%d", p.Name, game)
			g, err := NewGame(p, seed)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := plain.NewOracle(seed, p.Rows, p.Cols, p.StartTiles, plainWeights(p))
			if err != nil {
				t.Fatal(err)
			}
			for move := 0; !ref.Over() && move < 3000; move++ {
				d := Directions[rng.IntN(4)]
				before := g.Board()
				step, err := g.Move(d)
				if err != nil && !errors.Is(err, ErrIllegalMove) {
					t.Fatalf("%s %s move %d: %v", p.Name, seed, move, err)
				}
				changed := ref.Play(d.Letter())
				got := toPlain(g.Board())
				if step.Changed != changed || !got.Equal(ref.Board) || g.Score() != ref.Score || g.Moves() != ref.Moves || g.MaxTile() != ref.Board.Max() {
					t.Fatalf("%s %s move %d (%s) from\n%s\nengine: changed %v score %d moves %d max %d\n%s\nplain: changed %v score %d moves %d\n%s",
						p.Name, seed, move, d, before, step.Changed, g.Score(), g.Moves(), g.MaxTile(), got, changed, ref.Score, ref.Moves, ref.Board)
				}
				if changed && got[step.Spawn.Row][step.Spawn.Col] != step.Spawn.Value {
					t.Fatalf("%s move %d: reported spawn %+v, board\n%s", p.Name, move, step.Spawn, got)
				}
				if g.Result() == NoMoves != ref.Over() {
					t.Fatalf("%s move %d: result %v, plain over %v", p.Name, move, g.Result(), ref.Over())
				}
				if g.Over() {
					break
				}
			}
		}
	}
}

func load(t *testing.T, p *Profile, board string, rng *RNG) *Game {
	t.Helper()
	g, err := Load(p, State{Board: mustBoard(t, board), RNG: rng})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func seeded(seed string) *RNG {
	r, _ := NewRNG(seed)
	return &r
}

func TestUndoRestoresNextSpawn(t *testing.T) {
	g, err := NewGame(mustProfile(t, "online-2048"), "undo")
	if err != nil {
		t.Fatal(err)
	}
	start := g.State()
	d := g.LegalMoves()[0]
	first, err := g.Move(d)
	if err != nil || !first.Changed || !g.CanUndo() {
		t.Fatalf("move: %+v %v, can undo %v", first, err, g.CanUndo())
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if st := g.State(); st.Board != start.Board || st.Score != start.Score || st.Moves != start.Moves || *st.RNG != *start.RNG {
		t.Fatalf("after undo %+v, want %+v", st, start)
	}
	if err := g.Undo(); !errors.Is(err, ErrNoUndo) {
		t.Errorf("second undo: %v, want ErrNoUndo", err)
	}
	again, _ := g.Move(d)
	if again != first {
		t.Errorf("the same move after undo spawned %+v, first time %+v", again, first)
	}
	if err := g.Undo(); err != nil {
		t.Errorf("undo after another counted move: %v", err)
	}
}

func TestUndoUnsupported(t *testing.T) {
	g, _ := NewGame(mustProfile(t, "classic"), "x")
	g.Move(g.LegalMoves()[0])
	if err := g.Undo(); !errors.Is(err, ErrUnsupported) {
		t.Errorf("undo in classic: %v, want ErrUnsupported", err)
	}
	if err := g.EndRun(); !errors.Is(err, ErrUnsupported) {
		t.Errorf("end run in classic: %v, want ErrUnsupported", err)
	}
}

func TestEndRun(t *testing.T) {
	g, _ := NewGame(mustProfile(t, "online-2048"), "end")
	g.Move(g.LegalMoves()[0])
	if err := g.EndRun(); err != nil || g.Result() != RunFinished || !g.Over() {
		t.Fatalf("EndRun: %v, result %v", err, g.Result())
	}
	if legal := g.LegalMoves(); legal != nil || g.Legal(Left) || g.Board().LegalMoves() == nil {
		t.Errorf("after End run: legal moves %v, want none (the board has %v)", legal, g.Board().LegalMoves())
	}
	before := g.State()
	if step, err := g.Move(Left); err != nil || step.Changed || g.State().Board != before.Board {
		t.Errorf("move after End run: %+v %v (online-2048 ignores it)", step, err)
	}
	if err := g.Undo(); !errors.Is(err, ErrFinished) {
		t.Errorf("undo after End run: %v, want ErrFinished", err)
	}
	if err := g.EndRun(); !errors.Is(err, ErrFinished) {
		t.Errorf("second End run: %v, want ErrFinished", err)
	}
}

func TestFinishingOrder(t *testing.T) {
	// The merge makes 2048 and the spawn fills the last cell of a board
	// with no pairs: target reached comes before no moves left.
	board := "1024 1024 4 8/16 32 64 128/256 512 2 4/8 16 32 64"
	g := load(t, mustProfile(t, "online-2048"), board, nil)
	step, err := g.MoveSpawn(Left, Spawn{Row: 0, Col: 3, Value: 2})
	if err != nil || !step.Changed || step.Gained != 2048 {
		t.Fatalf("MoveSpawn: %+v %v", step, err)
	}
	if g.Result() != TargetReached || !g.Won() {
		t.Errorf("result %v won %v, want target reached", g.Result(), g.Won())
	}
	// The same in open-ended play: the target is only a milestone.
	open, _ := mustProfile(t, "online-2048").WithSetup(Setup{2048, true})
	g = load(t, open, board, nil)
	g.MoveSpawn(Left, Spawn{Row: 0, Col: 3, Value: 2})
	if g.Result() != NoMoves || !g.Won() {
		t.Errorf("open-ended: result %v won %v, want no moves left", g.Result(), g.Won())
	}
}

func TestMoveLimit(t *testing.T) {
	p := customProfile(t, "name: short\nbase: online-2048\nmoveLimit: 3\n")
	g, _ := NewGame(p, "limit")
	for g.Moves() < 3 {
		if g.Over() {
			t.Fatalf("over after %d moves: %v", g.Moves(), g.Result())
		}
		g.Move(g.LegalMoves()[0])
	}
	if g.Result() != MoveLimitReached {
		t.Errorf("after 3 moves: %v, want move limit reached", g.Result())
	}
}

func TestWinPerProfile(t *testing.T) {
	board := "1024 1024 . ./. . . ./. . . ./. . . ."
	tests := []struct {
		profile string
		result  Result
	}{
		{"classic", TargetReached},
		{"tile-merge", Playing},
		{"pgs", TargetReached},
		{"online-2048", TargetReached},
		{"rosetta", TargetReached},
	}
	for _, tt := range tests {
		g := load(t, mustProfile(t, tt.profile), board, seeded("w"))
		step, err := g.Move(Left)
		if err != nil || step.Gained != 2048 || !g.Won() || g.Result() != tt.result {
			t.Errorf("%s: %+v %v, won %v, result %v; want won, %v", tt.profile, step, err, g.Won(), g.Result(), tt.result)
		}
	}
}

func TestClassicKeepPlaying(t *testing.T) {
	g := load(t, mustProfile(t, "classic"), "1024 1024 1024 1024/. . . ./. . . ./. . . .", seeded("k"))
	g.Move(Left)
	if g.Result() != TargetReached {
		t.Fatalf("result %v", g.Result())
	}
	if step, err := g.Move(Right); err != nil || step.Changed {
		t.Errorf("classic move while stopped at the win: %+v %v, want ignored", step, err)
	}
	if err := g.KeepPlaying(); err != nil || g.Result() != Playing {
		t.Fatalf("KeepPlaying: %v, result %v", err, g.Result())
	}
	if err := g.KeepPlaying(); !errors.Is(err, ErrNotWaitingKeep) {
		t.Errorf("second KeepPlaying: %v", err)
	}
	// Two 2048s merge into 4096; the game does not stop again.
	if step, _ := g.Move(Left); step.Gained != 4096 || g.Result() != Playing {
		t.Errorf("after keep playing: %+v, result %v", step, g.Result())
	}
}

// TestLoadedKeepPlaying: a won state loaded with keepPlaying plays on
// where the win asks (classic: the player chose to) or goes on anyway
// (tile-merge), and is over where the win ends the run (pgs, online-2048,
// rosetta, a variant of classic that stops), as protocol rule 7 says:
// those profiles have no keep playing to choose, so the flag changes
// nothing there. A move is then ignored or refused, and keep playing is
// not-stopped.
func TestLoadedKeepPlaying(t *testing.T) {
	board := "2048 . . ./. . . ./. . . 2/. . . 2"
	stopVariant := customProfile(t, "name: classic-stop\nbase: classic\nwin: {then: stop}\n")
	for _, tc := range []struct {
		p    *Profile
		want Result
	}{
		{mustProfile(t, "classic"), Playing},
		{mustProfile(t, "tile-merge"), Playing},
		{mustProfile(t, "pgs"), TargetReached},
		{mustProfile(t, "online-2048"), TargetReached},
		{mustProfile(t, "rosetta"), TargetReached},
		{stopVariant, TargetReached},
	} {
		g, err := Load(tc.p, State{Board: mustBoard(t, board), RNG: seeded("kp"), Won: true, KeepPlaying: true})
		if err != nil {
			t.Fatal(err)
		}
		if g.Result() != tc.want || !g.Won() {
			t.Errorf("%s: loaded won and keepPlaying: result %v, won %v; want %v", tc.p.Name, g.Result(), g.Won(), tc.want)
		}
		step, err := g.Move(Up)
		if moved := err == nil && step.Changed; moved != (tc.want == Playing) {
			t.Errorf("%s: move up after the load: %+v %v; moved %v, want %v", tc.p.Name, step, err, moved, tc.want == Playing)
		}
		if tc.want == TargetReached {
			if err := g.KeepPlaying(); !errors.Is(err, ErrNotWaitingKeep) {
				t.Errorf("%s: keep playing after the load: %v, want not-stopped", tc.p.Name, err)
			}
		}
	}
}

// TestWinRuleMergeVersusReach loads a board that already holds a 4096:
// under the merge rule (classic) that is no win until a merge makes 2048;
// under the reach rule (pgs) it is.
func TestWinRuleMergeVersusReach(t *testing.T) {
	board := "4096 . . ./. . . ./. . . 2/. . . 2"
	classic := load(t, mustProfile(t, "classic"), board, seeded("m"))
	classic.Move(Up)
	if classic.Won() {
		t.Error("classic: won without a merge making 2048")
	}
	pgs := load(t, mustProfile(t, "pgs"), board, seeded("m"))
	if !pgs.Won() || pgs.Result() != TargetReached {
		t.Errorf("pgs: won %v result %v, want won and target reached", pgs.Won(), pgs.Result())
	}
}

func TestIllegalMoveRejected(t *testing.T) {
	for _, name := range []string{"tile-merge", "rosetta"} {
		g := load(t, mustProfile(t, name), "2 . . ./4 . . ./. . . ./. . . .", seeded("i"))
		before := g.State()
		_, err := g.Move(Left)
		var me *MoveError
		if !errors.As(err, &me) || !errors.Is(err, ErrIllegalMove) || fmt.Sprint(me.Legal) != "[down right]" {
			t.Errorf("%s: illegal left: %v, want a MoveError listing down, right", name, err)
		}
		if st := g.State(); st.Board != before.Board || *st.RNG != *before.RNG || st.Moves != 0 {
			t.Errorf("%s: state changed by a rejected move", name)
		}
	}
	g := load(t, mustProfile(t, "pgs"), "2 . . ./4 . . ./. . . ./. . . .", seeded("i"))
	if step, err := g.Move(Left); err != nil || step.Changed || g.Moves() != 0 {
		t.Errorf("pgs: illegal left: %+v %v, want ignored", step, err)
	}
}

func TestGameOverOnLoad(t *testing.T) {
	g := load(t, mustProfile(t, "pgs"), "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2", seeded("o"))
	if g.Result() != NoMoves || len(g.LegalMoves()) != 0 {
		t.Errorf("blocked board: result %v legal %v", g.Result(), g.LegalMoves())
	}
	g = load(t, mustProfile(t, "tile-merge"), "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2", seeded("o"))
	if _, err := g.Move(Up); !errors.Is(err, ErrFinished) {
		t.Errorf("tile-merge move on a blocked board: %v, want ErrFinished", err)
	}
}

func TestMoveSpawnErrors(t *testing.T) {
	p := mustProfile(t, "pgs")
	for _, board := range []string{"2 2 . ./. . . ./. . . ./. . . .", "2 2 ./. . .", "2 2 . . ./. . . . ./. . . . ./. . . . ./. . . . ."} {
		b := mustBoard(t, board)
		p := p.Clone()
		p.Rows, p.Cols = b.Rows(), b.Cols()
		for _, s := range []Spawn{{0, 0, 2}, {4, 5, 2}, {-1, 0, 2}, {1, 1, 8}, {1, 1, 3}} {
			g, err := Load(p, State{Board: b})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := g.MoveSpawn(Left, s); !errors.Is(err, ErrBadSpawn) {
				t.Errorf("%dx%d spawn %+v: %v, want ErrBadSpawn", b.Rows(), b.Cols(), s, err)
			}
			if g.Board() != b || g.Moves() != 0 {
				t.Errorf("state changed by a bad spawn")
			}
			if _, err := g.Move(Left); !errors.Is(err, ErrNoRNG) {
				t.Errorf("Move without RNG: %v", err)
			}
		}
	}
}

func TestLargeTileMerge(t *testing.T) {
	p := customProfile(t, "name: huge\nbase: tile-merge\nwin: {tile: 0}\n")
	g := load(t, p, "2147483648 2147483648 . ./. . . ./. . . ./. . . .", seeded("h"))
	step, err := g.Move(Left)
	if err != nil || step.Gained != 1<<32 || g.MaxTile() != 1<<32 {
		t.Errorf("merging two 2^31: %+v %v, max %d", step, err, g.MaxTile())
	}
	// The same through Play, which leaves the move to the general path.
	g = load(t, p, "2147483648 2147483648 . ./. . . ./. . . ./. . . .", seeded("h"))
	if n, err := g.Play([]Action{MoveLeft, MoveRight}, nil); n != 2 || err != nil || g.Score() < 1<<32 || g.MaxTile() != 1<<32 {
		t.Errorf("Play merging two 2^31: %d %v, score %d, max %d", n, err, g.Score(), g.MaxTile())
	}
}

func TestScoreOverflow(t *testing.T) {
	b := mustBoard(t, "2 2 . ./. . . ./. . . ./. . . .")
	g, err := Load(mustProfile(t, "pgs"), State{Board: b, Score: MaxSafeInteger - 1, RNG: seeded("s")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Move(Left); !errors.Is(err, ErrScoreOverflow) || g.Board() != b {
		t.Errorf("score overflow: %v", err)
	}
}

// TestMovesOverflow holds every path of a move (one move, a log played
// with drawn spawns, with given spawns, and as recorded) to refusing a
// move past MaxMoves counted moves as overflow, the game as it was; one
// move short of the bound still plays. MaxMoves is 2^53-1 where int has
// 64 bits and 2^31-1 where it has 32: there the count is refused at the
// int's end rather than wrapped to a negative count.
func TestMovesOverflow(t *testing.T) {
	b := mustBoard(t, "2 2 . ./. . . ./. . . ./. . . .")
	sp := []Spawn{{Row: 1, Col: 1, Value: 2}}
	load := func(moves int) *Game {
		t.Helper()
		g, err := Load(mustProfile(t, "classic"), State{Board: b, Moves: moves, RNG: seeded("s")})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	paths := map[string]func(g *Game) error{
		"Move":         func(g *Game) error { _, err := g.Move(Left); return err },
		"Play":         func(g *Game) error { _, err := g.Play([]Action{MoveLeft}, nil); return err },
		"Play spawns":  func(g *Game) error { _, err := g.Play([]Action{MoveLeft}, sp); return err },
		"PlayRecorded": func(g *Game) error { _, err := g.PlayRecorded([]Action{MoveLeft}, sp, make([]uint64, 1)); return err },
	}
	bound := "2^53-1"
	if strconv.IntSize == 32 {
		bound = "2^31-1"
	}
	for name, play := range paths {
		g := load(MaxMoves)
		if err := play(g); !errors.Is(err, ErrMovesOverflow) || Refusal(err) != "overflow" || !strings.Contains(err.Error(), bound) || g.Board() != b || g.Moves() != MaxMoves {
			t.Errorf("%s at %s moves: %v, %d moves", name, bound, err, g.Moves())
		}
		g = load(MaxMoves - 1)
		if err := play(g); err != nil || g.Moves() != MaxMoves {
			t.Errorf("%s one short of %s moves: %v, %d moves", name, bound, err, g.Moves())
		}
	}
	if strconv.IntSize == 64 {
		var tooMany uint64 = MaxSafeInteger + 1 // as an int constant, it would not compile on 32 bits
		if _, err := Load(mustProfile(t, "classic"), State{Board: b, Moves: int(tooMany)}); err == nil {
			t.Error("a state of 2^53 moves loads")
		}
	}
}

// TestPlayMatchesMove replays random games, with undo, End run and the
// other actions mixed in, once through Play and once action by action
// through Do, in every built-in profile, and compares the two.
func TestPlayMatchesMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, name := range BuiltinNames() {
		rules, err := Compile(mustProfile(t, name))
		if err != nil {
			t.Fatal(err)
		}
		for game := range 30 {
			seed := fmt.Sprint("play-", game)
			var log []Action
			for range 400 {
				a := Action(rng.IntN(4))
				switch rng.IntN(50) {
				case 0:
					a = Undo
				case 1:
					a = KeepPlaying
				case 2:
					a = Break
				}
				log = append(log, a)
			}
			if game%5 == 0 {
				log = append(log[:200], append([]Action{EndRun}, log[200:]...)...)
			}
			fast, _ := rules.NewGame(seed)
			nFast, errFast := fast.Play(log, nil)
			slow, _ := rules.NewGame(seed)
			nSlow, errSlow := doEach(slow, log)
			if nFast != nSlow || fmt.Sprint(errFast) != fmt.Sprint(errSlow) {
				t.Fatalf("%s %s: Play stopped at %d (%v), Do at %d (%v)", name, seed, nFast, errFast, nSlow, errSlow)
			}
			if fs, ss := fast.State(), slow.State(); fs.Board != ss.Board || fs.Score != ss.Score || fs.Moves != ss.Moves || fs.Breaks != ss.Breaks ||
				*fs.RNG != *ss.RNG || fs.Won != ss.Won || fs.Result != ss.Result || fast.CanUndo() != slow.CanUndo() {
				t.Fatalf("%s %s: Play gives %+v, Do gives %+v", name, seed, fs, ss)
			}
		}
	}
}

// doEach plays log on g action by action with Do, as Play's reference:
// the number of actions done and the error that stopped it.
func doEach(g *Game, log []Action) (int, error) {
	for i, a := range log {
		if _, err := g.Do(a); err != nil {
			return i, err
		}
	}
	return len(log), nil
}

// TestPlayEdges compares Play with Do action by action from states at the
// edges of Play's fast loops: a win tile one merge away in every built-in
// profile (merge and reach rules, stop, ask and continue), after keep
// playing, a merge making 2^16 and a board already holding it, a move
// limit met inside the log and at its very end, a score near 2^53-1, and a
// nearly full board. It compares the whole state, the state an undo would
// restore included.
func TestPlayEdges(t *testing.T) {
	profiles, boards := edgeStates(t)
	rng := rand.New(rand.NewPCG(21, 22))
	forEdges(t, profiles, boards, func(p *Profile, rules *Rules, bi int, board string, score uint64, game int) {
		// Logs long enough to pass the move limits, rich in the
		// moves that merge the big tiles on these boards (left
		// and up), with keep playing and undo mixed in.
		var log []Action
		for range 30 + game*10 {
			a := edgeAction(rng)
			log = append(log, a)
		}
		seed := fmt.Sprint("edge-", bi, "-", game)
		st := State{Board: mustBoard(t, board), Score: score, RNG: seeded(seed)}
		fast, err := rules.Load(st)
		if err != nil {
			t.Fatal(err)
		}
		slow, _ := rules.Load(st)
		nFast, errFast := fast.Play(log, nil)
		nSlow, errSlow := doEach(slow, log)
		where := fmt.Sprintf("%s, board %d, score %d, game %d", p.Name, bi, score, game)
		if nFast != nSlow || fmt.Sprint(errFast) != fmt.Sprint(errSlow) {
			t.Fatalf("%s: Play stopped at %d (%v), Do at %d (%v)", where, nFast, errFast, nSlow, errSlow)
		}
		if diff := cmp.Diff(slow.State(), fast.State(), cmp.AllowUnexported(Board{}, RNG{})); diff != "" || fast.MaxTile() != slow.MaxTile() {
			t.Fatalf("%s: state after Play differs from Do's (-Do +Play):\n%s\nmax tile %d, %d", where, diff, slow.MaxTile(), fast.MaxTile())
		}
	})
}

// forEdges runs f for each of profiles, compiled, each of boards, a score
// of 0 and one near 2^53-1, and 8 games of each: the loops of the edge
// tests of Play and PlayRecorded.
func forEdges(t *testing.T, profiles []*Profile, boards []string, f func(p *Profile, rules *Rules, bi int, board string, score uint64, game int)) {
	t.Helper()
	for _, p := range profiles {
		rules, err := Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		for bi, board := range boards {
			for _, score := range []uint64{0, MaxSafeInteger - 5000} {
				for game := range 8 {
					f(p, rules, bi, board, score, game)
				}
			}
		}
	}
}

// edgeAction is an action of the edge tests' logs: rich in the moves that
// merge the big tiles of their boards (left and up), with keep playing
// and undo mixed in.
func edgeAction(rng *rand.Rand) Action {
	a := []Action{MoveLeft, MoveLeft, MoveUp, MoveDown, MoveRight}[rng.IntN(5)]
	switch rng.IntN(25) {
	case 0:
		a = KeepPlaying
	case 1:
		a = Undo
	}
	return a
}

// edgeStates are the states at the edges of the fast loops that
// TestPlayEdges and TestPlayRecordedEdges play from: every 4x4 built-in
// profile, move limits inside a log (under a win that ignores and one
// that stops), spawn weights not adding up to 10 (the division path);
// boards with the win tile one merge away, a merge making 2^16, 65536 on
// the board, a nearly full board, a nearly empty one.
func edgeStates(t *testing.T) (profiles []*Profile, boards []string) {
	profiles = []*Profile{
		customProfile(t, "name: limited\nbase: online-2048\nmoveLimit: 40\n"),
		customProfile(t, "name: limited-pgs\nbase: pgs\nmoveLimit: 25\n"),
		customProfile(t, "name: weights\nbase: tile-merge\nspawn: {2: 3, 4: 2, 8: 1}\n"),
	}
	for _, name := range BuiltinNames() {
		if p := mustProfile(t, name); p.Rows == 4 && p.Cols == 4 { // the boards are 4x4
			profiles = append(profiles, p)
		}
	}
	boards = []string{
		"1024 1024 . ./. . . ./. . . ./. . . .",
		"2 1024 1024 ./4 . . ./. . . ./. . . .",
		"32768 32768 . ./2 . . ./. . . ./. . . .",
		"65536 2 . ./4 . . ./. . . ./. . . .",
		"2 4 8 16/32 64 128 256/512 2 4 8/16 32 . .",
		". . . ./. . . ./. . . ./. . . 2",
	}
	return profiles, boards
}

// TestPlayFinishOrder plays the one move that both reaches the move limit
// and leaves no move, under a profile that checks the move limit first:
// Play and Move must both end the run with the move limit.
func TestPlayFinishOrder(t *testing.T) {
	p := customProfile(t, "name: limit-first\nbase: pgs\nmoveLimit: 1\nfinishOrder: [move-limit, no-moves, target-reached]\n")
	// Moving right fills the gap and spawns at the bottom left, where no
	// 2 or 4 has an equal neighbour: the board is blocked.
	board := "8 16 8 16/16 8 16 8/8 16 8 16/32 64 32 ."
	for _, play := range []bool{true, false} {
		g := load(t, p, board, seeded("finish"))
		var err error
		if play {
			_, err = g.Play([]Action{MoveRight}, nil)
		} else {
			_, err = g.Move(Right)
		}
		if err != nil || g.Result() != MoveLimitReached || !g.Board().Blocked() {
			t.Errorf("play %v: %v, result %v, board\n%s", play, err, g.Result(), g.Board())
		}
	}
	// Blocked before the limit, with the rest of the log within it: no
	// moves left (pgs ignores the moves after the end).
	p = customProfile(t, "name: limit-first-3\nbase: pgs\nmoveLimit: 3\nfinishOrder: [move-limit, no-moves, target-reached]\n")
	g := load(t, p, board, seeded("finish"))
	if _, err := g.Play([]Action{MoveRight, MoveLeft, MoveLeft}, nil); err != nil || g.Moves() != 1 || g.Result() != NoMoves {
		t.Errorf("blocked before the limit: %v, %d moves, result %v", err, g.Moves(), g.Result())
	}
}

// TestReplayOnStack checks what engine.md promises a verifier: a game
// started and replayed by a caller that keeps it to itself allocates
// nothing (NewGame inlines, and the game lives on the caller's stack).
func TestReplayOnStack(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation changes what the compiler inlines")
	}
	rules, _ := Compile(mustProfile(t, "tile-merge"))
	games := corpus()[:10]
	i := 0
	allocs := testing.AllocsPerRun(50, func() {
		rg := games[i%len(games)]
		i++
		g, err := rules.NewGame(rg.seed)
		if err != nil {
			panic(err)
		}
		if _, err := g.Play(rg.actions, nil); err != nil || !g.Over() {
			panic(fmt.Sprint("replay did not end the game: ", err))
		}
	})
	if allocs != 0 {
		t.Errorf("a replay allocates %.1f times; want 0", allocs)
	}
}

// TestPlaySpawnRecorded records a game's spawns, replays the moves with
// those spawns on a game without a generator, and checks the same game
// results; then moves one spawn onto a full cell and checks the error
// names the move.
func TestPlaySpawnRecorded(t *testing.T) {
	rules, _ := Compile(mustProfile(t, "tile-merge"))
	g, _ := rules.NewGame("recorded")
	start := g.Board()
	var log []Action
	var spawns []Spawn
	for !g.Over() {
		d := g.LegalMoves()[0]
		step, err := g.Move(d)
		if err != nil {
			t.Fatal(err)
		}
		log, spawns = append(log, Action(d)), append(spawns, step.Spawn)
	}
	replay, err := rules.Load(State{Board: start})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := replay.Play(log, spawns); err != nil || n != len(log) || replay.Board() != g.Board() || replay.Score() != g.Score() || replay.Result() != NoMoves {
		t.Fatalf("spawn-recorded replay: %d of %d, %v; result %v", n, len(log), err, replay.Result())
	}
	bad := append([]Spawn(nil), spawns...)
	bad[10].Value = 8
	replay, _ = rules.Load(State{Board: start})
	if n, err := replay.Play(log, bad); n != 10 || !errors.Is(err, ErrBadSpawn) {
		t.Errorf("a spawn of 8 at move 10: stopped at %d with %v", n, err)
	}
}

// TestStateRoundTrip saves a game's state, undo included, loads it, and
// checks the loaded game plays and undoes exactly like the original.
func TestStateRoundTrip(t *testing.T) {
	rules, _ := Compile(mustProfile(t, "online-2048"))
	g, _ := rules.NewGame("round trip")
	g.Play([]Action{MoveLeft, MoveDown, MoveRight}, nil)
	st := g.State()
	if st.Prev == nil || st.Prev.Moves != st.Moves-1 {
		t.Fatalf("State().Prev = %+v", st.Prev)
	}
	h, err := rules.Load(st)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if err := h.Undo(); err != nil {
		t.Fatal(err)
	}
	a, _ := g.Move(g.LegalMoves()[0])
	b, _ := h.Move(h.LegalMoves()[0])
	if a != b || g.Board() != h.Board() || *g.State().RNG != *h.State().RNG {
		t.Errorf("after undo and a move: %+v and %+v", a, b)
	}
	st.Prev.Prev = &State{}
	if _, err := rules.Load(st); err == nil {
		t.Error("loaded a state with two steps of undo")
	}
	classic, _ := Compile(mustProfile(t, "classic"))
	st.Prev.Prev = nil
	if _, err := classic.Load(st); err == nil {
		t.Error("classic loaded a state to undo to")
	}
}

// TestResultName: each result's Name is the text MarshalText writes and
// UnmarshalText reads.
func TestResultName(t *testing.T) {
	for r := Playing; r <= RunFinished; r++ {
		text, err := r.MarshalText()
		var back Result
		if err != nil || r.Name() != string(text) || back.UnmarshalText([]byte(r.Name())) != nil || back != r {
			t.Errorf("result %d: Name %q, MarshalText %q (%v), read back as %v", r, r.Name(), text, err, back)
		}
	}
}

// TestStartFillingTheBoard: a start that fills the board is over at once
// when no move changes it, as a loaded board is; NewGame skips the look
// for a move only while a cell is empty.
func TestStartFillingTheBoard(t *testing.T) {
	p := customProfile(t, "name: full-start\nbase: tile-merge\nrows: 2\ncols: 2\nstartTiles: 4\nspawn: {2: 1, 4: 1}\n")
	rules, err := Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	over := 0
	for seed := range 64 {
		g, err := rules.NewGame(fmt.Sprint(seed))
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := rules.Load(State{Board: g.Board()})
		if err != nil {
			t.Fatal(err)
		}
		if g.Result() != loaded.Result() {
			t.Fatalf("seed %d: start\n%sresult %v, loaded %v", seed, g.Board(), g.Result(), loaded.Result())
		}
		if g.Over() {
			over++
		}
	}
	if over == 0 {
		t.Error("no start of 64 was blocked: the test checks nothing")
	}
}
