package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/testkit"
	"github.com/tileproof/tileproof/replay"
)

func TestMain(m *testing.M) {
	testscript.Main(closing{m}, map[string]func(){
		"tileproof": func() { main() },
	})
}

// TestScripts runs the command-line tests in testdata/script: each
// .txtar file runs tileproof and checks its stdout, stderr and exit code.
func TestScripts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Cmds:                map[string]func(ts *testscript.TestScript, neg bool, args []string){"implausible": implausibleCmd},
		// [int32]: int has 32 bits (386, arm).
		Condition: func(cond string) (bool, error) {
			if cond != "int32" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			return strconv.IntSize == 32, nil
		},
		Setup: func(env *testscript.Env) error {
			// $ROOT is the repository (for cases/ and testdata), $ADAPTER
			// the reference exec adapter, built once.
			adapter, err := testkit.BuildBinary("./conformance/testdata/adapter")
			env.Setenv("ROOT", root)
			env.Setenv("ADAPTER", adapter)
			return err
		},
	})
}

// closing runs the tests, then removes what testkit built.
type closing struct{ m *testing.M }

func (c closing) Run() int {
	defer testkit.Close()
	return c.m.Run()
}

// refAdapter builds the reference exec adapter, once a process.
func refAdapter(t testing.TB) string {
	t.Helper()
	return testkit.Binary(t, "./conformance/testdata/adapter")
}

// implausibleCmd is the testscript command "implausible FILE MOVES": it
// writes a spawn-recorded tile-merge game of up to MOVES moves (the first
// legal of left, up, right, down each time) in which every tile that
// appears is a 4 on the first empty cell: a legal game whose spawns the
// plausibility tests must find implausible.
func implausibleCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: implausible FILE MOVES")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("MOVES: %v", err)
	}
	data, err := implausibleGame(n)
	if err != nil {
		ts.Fatalf("%v", err)
	}
	if err := os.WriteFile(ts.MkAbs(args[0]), data, 0o666); err != nil {
		ts.Fatalf("%v", err)
	}
}

func implausibleGame(moves int) ([]byte, error) {
	p, err := engine.BuiltinProfile("tile-merge")
	if err != nil {
		return nil, err
	}
	start, err := engine.BoardFromValues([][]uint64{{4, 4, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}})
	if err != nil {
		return nil, err
	}
	g, err := engine.Load(p, engine.State{Board: start})
	if err != nil {
		return nil, err
	}
	r := &replay.Replay{Profile: p.Name, Rules: p.Version, Start: &start}
	for len(r.Actions) < moves && !g.Over() {
		d := g.LegalMoves()[0]
		sl, err := g.Board().Slide(d)
		if err != nil {
			return nil, err
		}
		s, ok := firstEmpty(sl.Board)
		if !ok {
			return nil, fmt.Errorf("no empty cell after a move that changed the board")
		}
		s.Value = 4
		if _, err := g.MoveSpawn(d, s); err != nil {
			return nil, err
		}
		r.Actions, r.Spawns = append(r.Actions, engine.Action(d)), append(r.Spawns, s)
	}
	b := g.Board()
	r.Claim = replay.Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves(), Board: &b}
	return r.EncodeYAML(80), nil
}

// firstEmpty returns the first empty cell of b, row by row.
func firstEmpty(b engine.Board) (engine.Spawn, bool) {
	for r := range b.Rows() {
		for c := range b.Cols() {
			if b.At(r, c) == 0 {
				return engine.Spawn{Row: r, Col: c}, true
			}
		}
	}
	return engine.Spawn{}, false
}

// FuzzLineJSON feeds arbitrary input to the JSON decoder of the line
// command: it must answer or refuse, never panic, and every answer must be
// a line the engine accepts or refuses with an error.
func FuzzLineJSON(f *testing.F) {
	f.Add(`{"lineBeforeSwipe":[2,2,2,2]}`)
	f.Add(`{"lineBeforeSwipe":[2.0,4e0,-0,1]}`)
	f.Add(`{"lineBeforeSwipe":["2"]}`)
	f.Add(`{"lineBeforeSwipe":[1e400]}`)
	f.Add(`{"x":1}`)
	f.Fuzz(func(t *testing.T, in string) {
		cells, err := decodeLineJSON([]byte(in))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if len(cells) > 16 {
			t.Fatalf("decoded %d cells", len(cells))
		}
	})
}
