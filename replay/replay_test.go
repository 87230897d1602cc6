package replay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/strictyaml"
)

// playGame plays a game with a corner-keeping player (down, left, right,
// up, the first that is legal) and returns it as a complete replay. A
// seeded game spawns by the profile's generator (hallabois-lcg's seeds
// are numbers: a seed that is not one is hashed to one).
func playGame(t testing.TB, profile, seed string, maxMoves int, spawnForm bool) *Replay {
	t.Helper()
	p, err := engine.BuiltinProfile(profile)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := engine.ParseGenerator(p.Generator())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Seed(seed); err != nil && gen != engine.TP1 {
		seed = fmt.Sprint(crc32.ChecksumIEEE([]byte(seed)))
	}
	rules, err := engine.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGameWith(gen, seed)
	if err != nil {
		t.Fatal(err)
	}
	start := g.Board()
	r := &Replay{Profile: profile}
	for !g.Over() && (maxMoves == 0 || g.Moves() < maxMoves) {
		for _, d := range []engine.Direction{engine.Down, engine.Left, engine.Right, engine.Up} {
			if g.Legal(d) {
				step, err := g.Move(d)
				if err != nil {
					t.Fatal(err)
				}
				r.Actions, r.Spawns = append(r.Actions, engine.Action(d)), append(r.Spawns, step.Spawn)
				break
			}
		}
	}
	board, won, over, result := g.Board(), g.Won(), g.Over(), g.Result()
	r.Claim = Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves(), Board: &board, Won: &won, Over: &over, Result: &result}
	if spawnForm {
		r.Start = &start
	} else {
		r.Seed, r.Spawns = &seed, nil
	}
	return r
}

func TestDecodeMinimal(t *testing.T) {
	// The minimal form of docs/replay-format.md.
	r, err := Decode("min.yaml", []byte("profile: tile-merge\nseed: \"7\"\nmoves: LLDRUL   # U D L R; white space ignored\nclaim: {score: 20544, maxTile: 2048, moves: 1033}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Profile != "tile-merge" || *r.Seed != "7" || engine.FormatActions(r.Actions) != "LLDRUL" || r.Claim.Score != 20544 || r.Claim.Moves != 1033 {
		t.Errorf("decoded %+v", r)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"profile: x\nmoves: L\nclaim: {score: 0, maxTile: 0, moves: 0}\n", "r.yaml: missing the field seed"},
		{"profile: x\nseed: \"1\"\nmoves: LXR\nclaim: {score: 0, maxTile: 0, moves: 0}\n", "r.yaml:3:1: moves: character 2: 'X' is not an action"},
		{"profile: x\nseed: \"1\"\nmoves: L\nclaim: {score: 0, moves: 0}\n", "r.yaml:4:1: the claim has no maxTile"},
		{"profile: x\nseed: \"1\"\nmoves: L\nclaim: {score: 0, maxTile: 0, moves: 0, board: \"2 2\\n2\"}\n", "r.yaml:4:48: claim.board: board row 2: has 1 cells"},
		{"profile: x\nstart: |\n  2 . . .\n  . 3 . .\n  . . . .\n  . . . .\nmoves: L\nclaim: {score: 0, maxTile: 0, moves: 0}\n", "r.yaml:4: start: board row 2, column 2: 3 is not a power of two"},
		{"profile: x\nstart: [[2, null], [null, x]]\nmoves: L1:2\nclaim: {score: 0, maxTile: 0, moves: 0}\n", "r.yaml:2:27: start: board row 2, column 2: the string \"x\" is not a tile"},
		{"profile: x\nstart: [[2, null], 4]\nmoves: L1\nclaim: {score: 0, maxTile: 0, moves: 0}\n", "r.yaml:2:20: start: 4 where a row (a list of cells) goes"},
		{"profile: x\nstart: [[2, null], [null, [4]]]\nmoves: L1\nclaim: {score: 0, maxTile: 0, moves: 0}\n", "r.yaml:2:27: start: a list where a cell goes"},
		{"profile: x\nstart: [[2, null], [null, null]]\nmoves: L1\nclaim: {score: 0, maxTile: 0, moves: 0}\n", "r.yaml:3:1: moves: character 1: move 'L' needs its spawn as CELL:VALUE"},
		{"profile: x\nseed: \"1\"\nstart: [[2, null], [null, null]]\nmoves: L\nclaim: {score: 0, maxTile: 0, moves: 0}\n", "r.yaml:3:1: a replay has a seed or a start board, not both"},
		{"profile: x\nseed: \"1\"\nmoves: L\nclaim: {score: 0, maxTile: 0, moves: 0}\nscore: 5\n", `r.yaml:5:1: unknown field "score"`},
		{"profile: x\nseed: \"1\"\nmoves: L\nclaim: {score: 0, maxTile: 0, moves: 0, result: won}\n", `r.yaml:4:41: claim.result: "won" is not one of`},
		{"{\"profile\": \"x\",\n \"seed\": 7,\n \"moves\": \"L\",\n \"claim\": {\"score\": -4, \"maxTile\": 0, \"moves\": 0}}", "r.yaml:4:21: claim.score: -4 is not a whole number from 0 to 2^53-1"},
		{"{\"profile\": \"x\",\n \"seed\": \"7\",\n \"moves\": \"L\",\n \"claim\": {\"score\": 4, \"maxTile\": 0, \"moves\": 0},\n \"extra\": 1}", `r.yaml:5:2: unknown field "extra"`},
		{"{\"profile\": \"x\",\n \"seed\": 7.5,\n \"moves\": \"L\",\n \"claim\": {\"score\": 4, \"maxTile\": 0, \"moves\": 0}}", "r.yaml:2:10: seed: 7.5 is not a seed"},
		{"profile: x\nseed: \"1\"\nmoves: |\n  LL\n  RR\n   UU\n LL\nclaim: {score: 0, maxTile: 0, moves: 0}\n", "did not find expected key"},
		{"profile: [x\n", "r.yaml:1: did not find expected"},
	}
	for _, tt := range tests {
		_, err := Decode("r.yaml", []byte(tt.yaml))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Decode(%q) = %v, want an error containing %q", tt.yaml, err, tt.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add("profile: tile-merge\nseed: \"7\"\nmoves: LLDRUL\nclaim: {score: 20544, maxTile: 2048, moves: 1033}\n")
	f.Add("profile: classic\nstart: |\n  2 . . .\n  . . . .\n  . . . .\n  . . 2 .\nmoves: L3:2 D14:4\nclaim: {score: 0, maxTile: 4, moves: 2, board: [[2, null, null, null], [0,0,0,0], [0,0,0,0], [0,0,0,0]]}\n")
	f.Add(`{"profile":"pgs","seed":"x","moves":"UZEK","claim":{"score":4,"maxTile":4,"moves":1,"won":false,"result":"no-moves"}}`)
	f.Add(`{"profile":"pgs","seed":"x","moves":"UZEK","times":"1 20 300 4000","timesSeal":"hmac-sha256:0000000000000000000000000000000000000000000000000000000000000000","claim":{"score":4,"maxTile":4,"moves":1}}`)
	f.Add("profile: tile-merge\nseed: \"7\"\nmoves: LLDRUL\ntimes: |\n  1 2 3\n  4 5 06\nclaim: {score: 20544, maxTile: 2048, moves: 1033}\n")
	v := NewVerifier()
	f.Fuzz(func(t *testing.T, text string) {
		r, err := Decode("f.yaml", []byte(text))
		if err != nil {
			if _, ok := err.(strictyaml.ErrorList); !ok {
				t.Fatalf("error %v (%T) is not an ErrorList", err, err)
			}
			return
		}
		vd := v.Verify(r) // must not panic, whatever the replay says
		if vd.Valid && (vd.SHA256 == "" || vd.Proved() == "") {
			t.Fatalf("a valid verdict without proof: %+v", vd)
		}
		if !vd.Valid && vd.Reason == "" {
			t.Fatalf("an invalid verdict without a reason: %+v", vd)
		}
	})
}

func TestEncodeRoundTrip(t *testing.T) {
	for _, spawnForm := range []bool{false, true} {
		r := playGame(t, "classic", "round-trip", 300, spawnForm)
		r.Source = "a \"quoted\" source"
		for name, data := range map[string][]byte{"yaml": r.EncodeYAML(60), "json": r.EncodeJSON()} {
			back, err := Decode(name, data)
			if err != nil {
				t.Fatalf("%s:\n%s\n%v", name, data, err)
			}
			if diff := cmp.Diff(r, back, cmp.Comparer(func(a, b engine.Board) bool { return a == b })); diff != "" {
				t.Errorf("%s round trip (-want +got):\n%s", name, diff)
			}
		}
	}
}

func verify(t *testing.T, r *Replay) Verdict {
	t.Helper()
	return NewVerifier().Verify(r)
}

func TestVerifyValid(t *testing.T) {
	for _, name := range engine.BuiltinNames() {
		for _, spawnForm := range []bool{false, true} {
			r := playGame(t, name, "valid-"+name, 0, spawnForm)
			vd := verify(t, r)
			if !vd.Valid || vd.Score != r.Claim.Score || vd.Moves != r.Claim.Moves || len(vd.SHA256) != 64 {
				t.Errorf("%s (spawns %v): %+v", name, spawnForm, vd)
			}
			if spawnForm && (vd.Plausibility == nil || vd.Plausibility.Spawns != r.Claim.Moves+2) {
				t.Errorf("%s: spawn-recorded game without plausibility: %+v", name, vd.Plausibility)
			}
		}
	}
	r := playGame(t, "tile-merge", "proof", 0, false)
	vd := verify(t, r)
	want := fmt.Sprintf("score %d, tile %d in %d moves is reachable from seed \"proof\" under profile tile-merge, rules version 1, spawns by tp1", r.Claim.Score, r.Claim.MaxTile, r.Claim.Moves)
	if vd.Proved() != want || fmt.Sprint(vd.Unpinned) != "[rules rng]" {
		t.Errorf("proved %q, unpinned %v; want %q", vd.Proved(), vd.Unpinned, want)
	}
}

// TestCanonicalHash: the same game in YAML and JSON, with or without
// optional claim fields and metadata, hashes the same; another game does
// not.
func TestCanonicalHash(t *testing.T) {
	r := playGame(t, "pgs", "hash", 200, false)
	a := NewVerifier().VerifyFile("a.yaml", r.EncodeYAML(40))
	r.Claim.Board, r.Claim.Won, r.Source = nil, nil, "elsewhere"
	b := NewVerifier().VerifyFile("b.json", r.EncodeJSON())
	if !a.Valid || !b.Valid || a.SHA256 != b.SHA256 {
		t.Errorf("hashes %s and %s (valid %v %v)", a.SHA256, b.SHA256, a.Valid, b.Valid)
	}
	other := verify(t, playGame(t, "pgs", "hash", 199, false))
	if other.SHA256 == a.SHA256 {
		t.Error("a game one move shorter hashes the same")
	}
}

// TestTampered changes one thing of a valid replay at a time and checks
// the verdict's reason and where it says the replay diverges.
func TestTampered(t *testing.T) {
	base := func(spawnForm bool) *Replay { return playGame(t, "tile-merge", "tamper", 0, spawnForm) }
	n := len(base(false).Actions)
	illegalAt := 0 // set by the tamper that inserts an illegal move
	tests := []struct {
		name   string
		spawns bool
		tamper func(r *Replay)
		reason Reason
		action int // the divergence's action, -1 to skip the check, -2 for illegalAt
	}{
		{"score raised", false, func(r *Replay) { r.Claim.Score += 4; r.Claim.Board = nil }, ClaimScore, n},
		{"score raised, board kept", false, func(r *Replay) { r.Claim.Score += 4 }, ImpossibleClaim, 0},
		{"tile raised", false, func(r *Replay) { r.Claim.MaxTile *= 2; r.Claim.Board = nil }, ClaimMaxTile, n},
		{"move count changed", false, func(r *Replay) { r.Claim.Moves--; r.Claim.Board = nil }, ClaimMoves, n},
		{"truncated log", false, func(r *Replay) { r.Actions = r.Actions[:n-10] }, ClaimMoves, n - 10},
		{"won flipped", false, func(r *Replay) { w := !*r.Claim.Won; r.Claim.Won = &w }, ClaimWon, n},
		{"result changed", false, func(r *Replay) { res := engine.Playing; r.Claim.Result = &res }, ClaimResult, n},
		{"board changed", false, func(r *Replay) {
			b := *r.Claim.Board
			for c := 1; c < 16; c++ { // swap two different tiles: the board stays consistent
				if x, y := b.At(0, 0), b.At(c/4, c%4); x != y {
					b.Set(0, 0, y)
					b.Set(c/4, c%4, x)
					break
				}
			}
			r.Claim.Board = &b
		}, ClaimBoard, -1},
		{"illegal move inserted", false, func(r *Replay) {
			// Insert, at the first point from action 20 where there is one,
			// a move that changes nothing.
			g, _ := engine.NewGame(mustProfile(t, "tile-merge"), *r.Seed)
			g.Play(r.Actions[:20], nil)
			for i := 20; i < len(r.Actions); i++ {
				for _, d := range engine.Directions {
					if !g.Legal(d) {
						r.Actions = append(r.Actions[:i:i], append([]engine.Action{engine.Action(d)}, r.Actions[i:]...)...)
						illegalAt = i + 1
						return
					}
				}
				g.Do(r.Actions[i])
			}
		}, IllegalMove, -2},
		{"moves after the end", false, func(r *Replay) { r.Actions = append(r.Actions, engine.MoveLeft) }, AfterEnd, n + 1},
		{"seed changed", false, func(r *Replay) { s := *r.Seed + "x"; r.Seed = &s }, "", -1},
		// A game that never reaches 2048 plays the same in tile-merge and
		// pgs; one with an undo in it does not.
		{"wrong profile", false, func(r *Replay) {
			r.Actions = append(r.Actions[:3:3], append([]engine.Action{engine.Undo}, r.Actions[2:]...)...)
			if vd := verify(t, &Replay{Profile: "online-2048", Seed: r.Seed, Actions: r.Actions, Claim: Claim{Score: r.Claim.Score, MaxTile: r.Claim.MaxTile, Moves: r.Claim.Moves}}); !vd.Valid {
				t.Errorf("the game with an undo is not valid under online-2048: %+v", vd)
			}
		}, BadAction, 4},
		{"undo in a profile without it", false, func(r *Replay) {
			r.Actions = append(r.Actions[:3:3], append([]engine.Action{engine.Undo}, r.Actions[3:]...)...)
		}, BadAction, 4},
		{"spawn onto a full cell", true, func(r *Replay) {
			g, _ := engine.Load(mustProfile(t, "tile-merge"), engine.State{Board: *r.Start})
			g.Play(r.Actions[:20], r.Spawns[:20])
			sl, _ := g.Board().Slide(engine.Direction(r.Actions[20]))
			for row := range 4 {
				for col := range 4 {
					if sl.Board.At(row, col) != 0 {
						r.Spawns[20].Row, r.Spawns[20].Col = row, col
						return
					}
				}
			}
		}, BadSpawn, 21},
		{"spawn value outside the profile", true, func(r *Replay) { r.Spawns[30].Value = 8 }, BadSpawn, 31},
		{"start board with three tiles", true, func(r *Replay) {
			b := *r.Start
			for i := range 16 {
				if b.At(i/4, i%4) == 0 {
					b.Set(i/4, i%4, 2)
					break
				}
			}
			r.Start = &b
		}, BadStart, 0},
		{"seed commitment wrong", false, func(r *Replay) { r.SeedCommitment = "sha256:" + strings.Repeat("0", 64) }, SeedCommitment, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := base(tt.spawns)
			tt.tamper(r)
			vd := verify(t, r)
			if vd.Valid {
				t.Fatalf("tampered replay verified: %+v", vd)
			}
			if tt.reason != "" && vd.Reason != tt.reason {
				t.Fatalf("reason %q, want %q (%+v)", vd.Reason, tt.reason, vd.Divergence)
			}
			if tt.action == -2 {
				tt.action = illegalAt
			}
			if tt.action >= 0 && vd.Divergence.Action != tt.action {
				t.Errorf("diverges at action %d, want %d: %+v", vd.Divergence.Action, tt.action, vd.Divergence)
			}
			if vd.Reason == ClaimBoard && !(strings.Contains(vd.Divergence.Diff(), "-") && strings.Contains(vd.Divergence.Diff(), "+")) {
				t.Errorf("board claim without a diff: %q", vd.Divergence.Diff())
			}
			if vd.Divergence == nil || vd.Divergence.Says() == "" || vd.Divergence.Gives() == "" {
				t.Errorf("divergence without what was expected and found: %+v", vd.Divergence)
			}
		})
	}
}

func mustProfile(t testing.TB, name string) *engine.Profile {
	p, err := engine.BuiltinProfile(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSeedCommitmentValid(t *testing.T) {
	r := playGame(t, "online-2048", "a long unguessable seed 1f3a9c", 40, false)
	sum := sha256.Sum256([]byte(*r.Seed))
	r.SeedCommitment = "sha256:" + hex.EncodeToString(sum[:])
	if vd := verify(t, r); !vd.Valid {
		t.Errorf("committed seed: %+v", vd)
	}
}

func TestRefused(t *testing.T) {
	r := playGame(t, "tile-merge", "pins", 10, false)
	r.Rules = 2
	if vd := verify(t, r); vd.Reason != Refused || !strings.Contains(vd.Error, "pins rules version 2 of profile tile-merge; this verifier knows version 1 only") {
		t.Errorf("rules 2: %+v", vd)
	}
	r.Rules, r.RNG = 1, "mt19937"
	if vd := verify(t, r); vd.Reason != Refused || !strings.Contains(vd.Error, `spawn generator "mt19937"`) {
		t.Errorf("rng mt19937: %+v", vd)
	}
	r.RNG, r.Profile = "tp1", "nosuch"
	if vd := verify(t, r); vd.Reason != Refused || !strings.Contains(vd.Error, `unknown profile "nosuch"`) {
		t.Errorf("profile nosuch: %+v", vd)
	}
	r.Profile = "tile-merge"
	if vd := verify(t, r); !vd.Valid || len(vd.Unpinned) != 0 {
		t.Errorf("pinned: %+v", vd)
	}
}

// TestCheckClaim: the constant-time check accepts every real final state
// and rejects a score off by 4 and a spawn count that cannot add up.
func TestCheckClaim(t *testing.T) {
	p := mustProfile(t, "classic")
	for i := range 20 {
		r := playGame(t, "classic", fmt.Sprint("claim-", i), 0, false)
		if err := checkClaim(p, r.Claim); err != nil {
			t.Fatalf("real claim rejected: %v", err)
		}
		c := r.Claim
		c.Score += 4
		if checkClaim(p, c) == nil {
			t.Fatalf("score +4 accepted")
		}
		c = r.Claim
		c.Moves += 5 // five more spawns of at least 2 cannot fit the same board
		if checkClaim(p, c) == nil {
			t.Fatalf("moves +5 accepted")
		}
	}
}

// TestPlausibility: honest spawn-recorded games pass; a recorder that
// always spawns in the first empty cell, or spawns 4s half the time, is
// warned about (and still valid).
func TestPlausibility(t *testing.T) {
	honest := verify(t, playGame(t, "tile-merge", "honest", 0, true))
	if len(honest.Plausibility.warnings(nil)) != 0 {
		t.Errorf("honest game warned: %v (%+v)", honest.Warnings, honest.Plausibility)
	}
	for _, bias := range []string{"first-cell", "fifty-fifty"} {
		r := biasedGame(t, bias)
		vd := verify(t, r)
		if !vd.Valid || len(vd.Plausibility.warnings(nil)) == 0 {
			t.Errorf("%s: valid %v, warnings %v, %+v", bias, vd.Valid, vd.Warnings, vd.Plausibility)
		}
	}
}

// biasedGame plays a spawn-recorded game whose spawns follow a broken
// generator.
func biasedGame(t *testing.T, bias string) *Replay {
	p := mustProfile(t, "tile-merge")
	start, _ := engine.ParseBoard("2 . . ./. . . ./. . . ./. . 2 .")
	g, _ := engine.Load(p, engine.State{Board: start})
	r := &Replay{Profile: p.Name, Start: &start}
	for i := 0; !g.Over(); i++ {
		var d engine.Direction
		for _, d = range []engine.Direction{engine.Down, engine.Left, engine.Right, engine.Up} {
			if g.Legal(d) {
				break
			}
		}
		sl, _ := g.Board().Slide(d)
		var s engine.Spawn
		s.Value = 2
		if bias == "fifty-fifty" && i%2 == 0 {
			s.Value = 4
		}
		var empties []int
		for c := range 16 {
			if sl.Board.At(c/4, c%4) == 0 {
				empties = append(empties, c)
			}
		}
		c := empties[0]
		if bias == "fifty-fifty" {
			c = empties[(i*7)%len(empties)]
		}
		s.Row, s.Col = c/4, c%4
		if _, err := g.MoveSpawn(d, s); err != nil {
			t.Fatal(err)
		}
		r.Actions, r.Spawns = append(r.Actions, engine.Action(d)), append(r.Spawns, s)
	}
	r.Claim = Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves()}
	return r
}

// TestCanonicalForm pins the canonical form of one small replay, written
// out by hand from docs/replay-format.md, so the hash operators store
// cannot drift.
func TestCanonicalForm(t *testing.T) {
	r, err := Decode("c.yaml", []byte("profile: tile-merge\nseed: \" 7 \"\nmoves: llur\nclaim: {score: 12, maxTile: 8, moves: 4}\nsource: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	vd := NewVerifier().Verify(r)
	canonical := `{"profile":"tile-merge","rules":1,"rng":"tp1","seed":"7","moves":"LLUR","claim":{"score":12,"maxTile":8,"moves":4,"board":[[0,0,8,2],[0,2,0,2],[0,0,0,0],[0,0,0,0]],"won":false,"over":false,"result":"playing"}}`
	sum := sha256.Sum256([]byte(canonical))
	if want := hex.EncodeToString(sum[:]); vd.SHA256 != want {
		t.Errorf("SHA-256 %s, want %s, the hash of\n%s", vd.SHA256, want, canonical)
	}

	// The spawn-recorded form: the start board, and the spawn tokens run
	// together.
	r, err = Decode("s.yaml", []byte("profile: tile-merge\nstart: |\n  2 2 . .\n  . . . .\n  . . . .\n  . . . .\nmoves: l3:2 D13:4\nclaim: {score: 4, maxTile: 4, moves: 2}\n"))
	if err != nil {
		t.Fatal(err)
	}
	vd = NewVerifier().Verify(r)
	canonical = `{"profile":"tile-merge","rules":1,"start":[[2,2,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"moves":"L3:2D13:4","claim":{"score":4,"maxTile":4,"moves":2,"board":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[4,4,0,2]],"won":false,"over":false,"result":"playing"}}`
	sum = sha256.Sum256([]byte(canonical))
	if want := hex.EncodeToString(sum[:]); !vd.Valid || vd.SHA256 != want {
		t.Errorf("valid %v (%s %+v), SHA-256 %s, want %s, the hash of\n%s", vd.Valid, vd.Reason, vd.Divergence, vd.SHA256, want, canonical)
	}
}

// TestVerifyBatchOrder checks that verdicts come out in input order
// whatever order the workers finish in, and that an unreadable input is a
// verdict of its own.
func TestVerifyBatchOrder(t *testing.T) {
	const n = 500
	in := make(chan Input)
	go func() {
		for i := range n {
			input := Input{Name: fmt.Sprint(i)}
			if i%97 == 0 {
				input.Err = fmt.Errorf("unreadable")
			}
			in <- input
		}
		close(in)
	}()
	var got []string
	slow := func(name string, data []byte) Verdict {
		var i int
		fmt.Sscan(name, &i)
		for range (n - i) * 1000 { // early inputs take longest
		}
		return Verdict{Name: name, Valid: true}
	}
	VerifyBatch(context.Background(), in, 3, slow, func(vd Verdict) {
		got = append(got, vd.Name)
		var i int
		fmt.Sscan(vd.Name, &i)
		if (i%97 == 0) != (vd.Reason == Malformed) {
			t.Errorf("input %d: %+v", i, vd)
		}
	}, nil)
	for i, name := range got {
		if name != fmt.Sprint(i) {
			t.Fatalf("verdict %d is for input %s", i, name)
		}
	}
	if len(got) != n {
		t.Errorf("%d verdicts for %d inputs", len(got), n)
	}
}

// TestVerifyBatchIdle: a stream that sends one replay at a time gets each
// verdict written out (idle called after emit) before it sends the next,
// as a leaderboard piping submissions through verify needs, and nothing
// is left unwritten at the end.
func TestVerifyBatchIdle(t *testing.T) {
	in := make(chan Input)
	var mu sync.Mutex
	var pending, written []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		VerifyBatch(context.Background(), in, 2, func(name string, _ []byte) Verdict { return Verdict{Name: name, Valid: true} },
			func(vd Verdict) {
				mu.Lock()
				pending = append(pending, vd.Name)
				mu.Unlock()
			},
			func() {
				mu.Lock()
				written = append(written, pending...)
				pending = nil
				mu.Unlock()
			})
	}()
	for i := range 20 {
		in <- Input{Name: fmt.Sprint(i), Data: []byte("{}")}
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			n := len(written)
			mu.Unlock()
			if n == i+1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("verdict %d not written out while the stream waits (%d written)", i, n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	close(in)
	<-done
	if len(pending) != 0 || len(written) != 20 {
		t.Errorf("at the end: %d written, %d left unwritten", len(written), len(pending))
	}
}

// TestVerifyBatchCancel: once its context is done, the batch verifies no
// more inputs, emits the verdicts before the first left out, in order,
// gives back every input's memory, and returns when the sender closes.
func TestVerifyBatchCancel(t *testing.T) {
	const n = 1000
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := make(chan Input)
	var released, verified atomic.Int64
	go func() {
		defer close(in)
		for i := range n {
			in <- Input{Name: fmt.Sprint(i), Data: []byte("{}"), Release: func() { released.Add(1) }}
		}
	}()
	var got []string
	VerifyBatch(ctx, in, 3, func(name string, _ []byte) Verdict {
		if verified.Add(1) == 100 {
			cancel()
		}
		return Verdict{Name: name, Valid: true}
	}, func(vd Verdict) { got = append(got, vd.Name) }, nil)
	if v := verified.Load(); v < 100 || v > 100+3 {
		t.Errorf("%d inputs verified; the context ended at the 100th (3 workers)", v)
	}
	if len(got) > int(verified.Load()) {
		t.Errorf("%d verdicts for %d verified", len(got), verified.Load())
	}
	for i, name := range got {
		if name != fmt.Sprint(i) {
			t.Fatalf("verdict %d is for input %s", i, name)
		}
	}
	if released.Load() != n {
		t.Errorf("%d of %d inputs gave their memory back", released.Load(), n)
	}
}
