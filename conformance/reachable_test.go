package conformance

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tileproof/tileproof/engine"
)

// TestWinByReachUnderMergeRule: classic and rosetta win when a merge
// makes 2048; a game of either spawns only 2s and 4s and never clears
// won, so winning when a tile of 2048 or more is on the board is the
// same rule in every game played. An implementation that wins so (the
// engine, its two profiles set to reach) must pass every case whose
// state a game reaches: where the two rules part, on a loaded state that
// holds such a tile without the win, the case is marked unreachable, and
// its failure is reported apart.
func TestWinByReachUnderMergeRule(t *testing.T) {
	// The rule does differ: on the loaded states no game reaches.
	winUnder(t, engine.Reach, "the reach rule from the merge rule", "classic", "rosetta")
}

// winUnder runs the pack and the property checks against the engine
// playing the built-in profiles named with their win.when set to when: no
// failure on a state a game reaches, and some on one no game reaches
// (what tells the two rules apart, told in the error).
func winUnder(t *testing.T, when engine.WinWhen, tells string, names ...string) {
	t.Helper()
	var changed []*engine.Profile
	for _, name := range names {
		p, err := engine.BuiltinProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Clone()
		p.Win.When = when
		changed = append(changed, p)
	}
	rep, err := Run(t.Context(), loadRepoPack(t), &Builtin{Profiles: changed}, Options{Profiles: names, Properties: true})
	if err != nil {
		t.Fatal(err)
	}
	failed, _ := rep.Failures()
	for _, f := range failed {
		t.Errorf("%s [%s]: %s: %s", f.Case, f.Profile, f.Status, f.Reason)
	}
	if len(rep.UnreachableFailures()) == 0 {
		t.Errorf("no case tells %s, even on a state no game reaches", tells)
	}
}

// TestWonAsLoadedUnderReachRule: tile-merge, pgs and online-2048 win
// when a tile of the win tile (or the run's target) or more is on the
// board after a move, and read a loaded state so too (protocol rule 7).
// Their spawns are 2s and 4s, so in every game the first such tile is a
// merge that makes exactly the win tile: the merge rule, under which a
// load keeps won as given, plays every game alike. An implementation that
// takes the loaded won as given (the engine, the three profiles set to
// merge) must pass every case whose state a game reaches: a loaded tile
// of the win tile or more without won is reported apart.
func TestWonAsLoadedUnderReachRule(t *testing.T) {
	winUnder(t, engine.Merge, "a won read from the board from one taken as loaded", "tile-merge", "pgs", "online-2048")
}

// TestWinUnreachable: the starts no game of the profile reaches by its
// win, and starts a game does reach, under each kind of win.
func TestWinUnreachable(t *testing.T) {
	board := func(s string) *engine.Board {
		b, err := engine.ParseBoard(s)
		if err != nil {
			t.Fatal(err)
		}
		return &b
	}
	small, big := board("2 4 . .\n. . . .\n. . . .\n. . . ."), board("2048 4 . .\n. . . .\n. . . .\n. . . .")
	huge := board("4096 2048 . .\n. . . .\n. . . .\n. . . .")
	stop, err := engine.ParseProfile("classic-stop.yaml", []byte("name: classic-stop\nbase: classic\nwin: {then: stop}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		profile string
		start   Start
		want    string // a word of the reason; "" for a state a game reaches
	}{
		{"classic", Start{Board: small}, ""},
		{"classic", Start{Board: big, Won: true}, ""},
		{"classic", Start{Board: big, Won: true, KeepPlaying: true}, ""},
		{"classic", Start{Board: big}, "without having won"},
		{"rosetta", Start{Board: big}, "without having won"},
		{"classic", Start{Board: small, Won: true}, "has won without"},
		{"classic", Start{Board: small, KeepPlaying: true}, "keeps playing"},
		{"tile-merge", Start{Board: big}, "without having won"}, // the reach rule wins on the move that makes it
		{"tile-merge", Start{Board: big, Won: true}, ""},
		{"online-2048", Start{Board: big, Setup: &engine.Setup{Target: 4096}}, ""},
		{"online-2048", Start{Board: big, Setup: &engine.Setup{Target: 512, OpenEnded: true}}, "tile of 512"},
		{"pgs", Start{Board: small, Won: true}, "has won without"},
		{"online-2048", Start{Board: board("128 . . .\n. . . .\n. . . .\n. . . ."), Won: true, Setup: &engine.Setup{Target: 128}}, ""},
		{"online-2048", Start{Board: board("64 . . .\n. . . .\n. . . .\n. . . ."), Won: true, Setup: &engine.Setup{Target: 128}}, "tile of 128"},
		{"classic", Start{Seed: new("7")}, ""},
		// Where the win ends the run: won and over at the win tile, and
		// nothing past it.
		{"pgs", Start{Board: big, Won: true}, ""},
		{"pgs", Start{Board: big, Won: true, KeepPlaying: true}, "keeps playing after its win"},
		{"pgs", Start{Board: big, Won: true, KeepPlaying: true, Setup: &engine.Setup{OpenEnded: true}}, ""},
		{"rosetta", Start{Board: big, Won: true, KeepPlaying: true}, "keeps playing after its win"},
		{"tile-merge", Start{Board: big, Won: true, KeepPlaying: true}, ""},
		{"online-2048", Start{Board: huge, Won: true}, "tile above 2048"},
		{"online-2048", Start{Board: huge, Won: true, Setup: &engine.Setup{Target: 4096}}, ""},
		{"online-2048", Start{Board: big, Won: true, Setup: &engine.Setup{Target: 512}}, "tile above 512"},
		{"online-2048", Start{Board: huge, Won: true, Setup: &engine.Setup{OpenEnded: true}}, ""},
		{"pgs", Start{Board: huge, Won: true}, "tile above 2048"},
		{"classic", Start{Board: huge, Won: true}, ""},    // the win asks: kept playing, a game goes on
		{"tile-merge", Start{Board: huge, Won: true}, ""}, // the win goes on
		{"rosetta", Start{Board: huge, Won: true}, ""},    // winThen unstated: a game that plays on reaches it
		{"classic-stop", Start{Board: huge, Won: true}, "tile above 2048"},
		{"classic-stop", Start{Board: big, Won: true}, ""},
	} {
		p := stop
		if tc.profile != stop.Name {
			if p, err = engine.BuiltinProfile(tc.profile); err != nil {
				t.Fatal(err)
			}
		}
		got := winUnreachable(tc.start, p)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s, %+v: %q, want %q", tc.profile, tc.start, got, tc.want)
		}
	}
}

// TestStopWinPastTheWinApart: where the win ends the run, a start kept
// playing after its win, or holding a tile above the win tile, is a state
// no game reaches. An implementation that plays either on (the engine
// with pgs's win set to ask, which honours keepPlaying, and set to
// continue, which plays past the win) fails there, and the failure is
// reported apart, not as the run's; the engine itself passes both.
func TestStopWinPastTheWinApart(t *testing.T) {
	const cases = `source: tileproof
profiles: [pgs, online-2048]
cases:
  - id: kept-after-the-win
    start: {board: "2048 . . .\n. . . .\n. . . 2\n. . . 2", won: true, keepPlaying: true}
    steps: [{move: up, expect: {changed: false, over: true, result: target-reached}}]
  - id: past-the-win-tile
    start: {board: "4096 2048 . .\n. . . .\n. . . 2\n. . . 2", won: true}
    steps: [{move: up, expect: {changed: false, over: true, result: target-reached}}]
`
	pack, err := LoadPack(fstest.MapFS{
		"pack.yaml":    {Data: []byte("name: p\nversion: 1\ncontract: 1\n")},
		"win/won.yaml": {Data: []byte(cases)},
	})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"pgs", "online-2048"}
	for _, then := range []engine.WinThen{engine.Stop, engine.Ask, engine.Continue} {
		var changed []*engine.Profile
		for _, name := range names {
			p, err := engine.BuiltinProfile(name)
			if err != nil {
				t.Fatal(err)
			}
			p.Win.Then = then
			changed = append(changed, p)
		}
		rep, err := Run(t.Context(), pack, &Builtin{Profiles: changed}, Options{Profiles: names})
		if err != nil {
			t.Fatal(err)
		}
		failed, _ := rep.Failures()
		for _, f := range failed {
			t.Errorf("win.then %s: %s [%s]: %s on a state a game reaches: %s", then, f.Case, f.Profile, f.Status, f.Reason)
		}
		apart := rep.UnreachableFailures()
		if want := map[engine.WinThen]int{engine.Stop: 0, engine.Ask: 2, engine.Continue: 4}[then]; len(apart) != want {
			t.Errorf("win.then %s: %d failures apart, want %d", then, len(apart), want)
		}
		for _, res := range rep.Results {
			if !strings.Contains(res.Unreachable, "no game under "+res.Profile) {
				t.Errorf("win.then %s: %s [%s]: unreachable %q", then, res.Case, res.Profile, res.Unreachable)
			}
		}
	}
}
