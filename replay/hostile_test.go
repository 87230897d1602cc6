package replay

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/strictyaml"
)

// The attacks of a submitter who writes replays by hand, each held here:
// a leaderboard verifies files its players wrote.

const goodJSON = `{"profile":"tile-merge","seed":"7","moves":"LLUR","claim":{"score":12,"maxTile":8,"moves":4}}`

func mustDecodeFail(t *testing.T, name, text, want string) {
	t.Helper()
	_, err := Decode(name, []byte(text))
	var list strictyaml.ErrorList
	if !errors.As(err, &list) || !strings.Contains(err.Error(), want) {
		t.Errorf("Decode(%.80q) = %v, want an error list with %q", text, err, want)
	}
}

// TestJSONReadOneWay: a claim that other JSON readers read differently
// (a case variant, a name equal by Unicode folding, a repeated name, the
// last of which encoding/json keeps) is an error naming its place.
func TestJSONReadOneWay(t *testing.T) {
	if _, err := Decode("g.json", []byte(goodJSON)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ text, want string }{
		{`{"profile":"tile-merge","seed":"7","moves":"LLUR","claim":{"score":999996,"maxTile":8,"moves":4},"Claim":{"score":12,"maxTile":8,"moves":4}}`, `a.json:1:98: unknown field "Claim"`},
		{`{"profile":"tile-merge","seed":"99","moves":"LLUR","ſeed":"7","claim":{"score":12,"maxTile":8,"moves":4}}`, `unknown field "ſeed"`},
		{`{"profile":"tile-merge","seed":"7","moves":"LLUR","claim":{"score":999996,"score":12,"maxTile":8,"moves":4}}`, "a.json:1:75: the field claim/score again"},
		{`{"profile":"tile-merge","profile":"classic","seed":"7","moves":"LLUR","claim":{"score":12,"maxTile":8,"moves":4}}`, "the field profile again"},
		{"{\"profile\":\"tile-merge\",\"seed\":\"7\xff\",\"moves\":\"L\",\"claim\":{\"score\":0,\"maxTile\":4,\"moves\":1}}", "a.json:1:34: invalid JSON: invalid UTF-8"},
		{`{"profile":"tile-merge","seed":"7","moves":"LLUR","claim":{"score":12,"maxTile":8,"moves":4}} {}`, "data after the replay's object"},
		{`{"profile":"tile-merge","seed":"7","moves":"LLUR","claim":{"score":12.0,"maxTile":8,"moves":4}}`, "claim.score: 12.0 is not a whole number"},
		{`{"profile":"tile-merge","seed":"7","moves":"LLUR","claim":{"score":18446744073709551616,"maxTile":8,"moves":4}}`, "claim.score: 18446744073709551616 is not a whole number from 0 to 2^53-1"},
		{`{"profile":"tile-merge","seed":true,"moves":"LLUR","claim":{"score":12,"maxTile":8,"moves":4}}`, "seed: true is not a seed"},
		{`{"profile":"tile-merge","seed":"7","moves":"LLUR","claim":null}`, "claim: null where an object goes"},
	} {
		mustDecodeFail(t, "a.json", tc.text, tc.want)
	}
}

// TestYAMLNumbersPlainly: a count is a plain decimal whole number in
// range; YAML's other forms of numbers (hexadecimal, underscores, a sign,
// a fraction, out of range) and of booleans (True, yes) are errors, never
// read as the number or the flag a reader might take them for.
func TestYAMLNumbersPlainly(t *testing.T) {
	base := "profile: tile-merge\nseed: \"7\"\nmoves: LLUR\nclaim:\n  score: %s\n  maxTile: 8\n  moves: 4\n"
	for _, score := range []string{"0x7e68", "32_360", "+32360", "32360.0", "18446744073709551616", "9007199254740992", "-4", "1e3", "012"} {
		mustDecodeFail(t, "n.yaml", strings.Replace(base, "%s", score, 1), "n.yaml:5:10: claim.score: "+score+" is not a whole number")
	}
	mustDecodeFail(t, "n.yaml", strings.Replace(base, "%s", "\"12\"", 1), `claim.score: the string "12" is not a whole number`)
	mustDecodeFail(t, "r.yaml", "profile: tile-merge\nrules: 1.0\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n", "r.yaml:2:8: rules: 1.0 is not a whole number")
	mustDecodeFail(t, "s.yaml", "profile: tile-merge\nseed: true\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n", "s.yaml:2:7: seed: true is not a seed")
	mustDecodeFail(t, "w.yaml", "profile: tile-merge\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1, won: True}\n", "claim.won: True where true or false goes")
	mustDecodeFail(t, "a.yaml", "profile: &p tile-merge\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n", "a.yaml:1:10: profile: an anchor or alias")
}

// TestBoundedMemory: a value the YAML library would parse into millions
// of nodes, or a header of many keys, is refused before the library sees
// it, in memory a small multiple of the input (docs/security.md).
func TestBoundedMemory(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"flow list in source", "source: [" + strings.Repeat("0,", 4<<20) + "0]\nprofile: tile-merge\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n", "at most 65536"},
		{"flow list in claim.board", "profile: tile-merge\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1, board: [" + strings.Repeat("[0],", 1<<20) + "[0]]}\n", "at most 65536"},
		{"many keys", "profile: tile-merge\nseed: \"7\"\nmoves: L\nclaim:\n" + strings.Repeat("  x: 1\n", 9000), "at most 1024"},
		{"many small keys", "profile: tile-merge\nseed: \"7\"\nmoves: L\nclaim:\n" + strings.Repeat(" x: 1\n", 200), "the key \"x\" again"},
		{"deep nesting", "profile: tile-merge\nseed: \"7\"\nmoves: L\nsource: " + strings.Repeat("[", 30000) + "\nclaim: {score: 0, maxTile: 4, moves: 1}\n", "YAML nodes"},
		{"a JSON line that is not JSON", "{source: [" + strings.Repeat("0,", 1<<20) + "0]}", "invalid JSON"},
		{"a long source in JSON", `{"source":"` + strings.Repeat("x", 70000) + `","profile":"tile-merge","seed":"7","moves":"L","claim":{"score":0,"maxTile":4,"moves":1}}`, "the replay's fields other than moves take 70"},
		{"a long source in the plain YAML form", "source: \"" + strings.Repeat("x", 70000) + "\"\nprofile: tile-merge\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n", "the replay's fields other than moves take 70"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err = Decode("b.yaml", []byte(tc.text))
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%.200v, want %q", err, tc.want)
			}
			mem := after.TotalAlloc - before.TotalAlloc
			if limit := 20*uint64(len(tc.text)) + 8<<20; mem > limit {
				t.Errorf("%d bytes allocated for a %d-byte input (at most %d)", mem, len(tc.text), limit)
			}
			if len(err.Error()) > 400 {
				t.Errorf("a message of %d bytes: it echoes the input", len(err.Error()))
			}
		})
	}
}

// TestLongValuesCut: a long seed, field name or value is cut in messages.
func TestLongValuesCut(t *testing.T) {
	long := strings.Repeat("x", 10000)
	r, err := Decode("l.yaml", []byte("profile: tile-merge\nseed: \""+long+"\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	vd := NewVerifier().Verify(r)
	if vd.Reason != Malformed || len(vd.Error) > 300 || !strings.Contains(vd.Error, "10000 bytes in all") {
		t.Errorf("%s: %.400s", vd.Reason, vd.Error)
	}
	for _, text := range []string{
		"profile: tile-merge\n" + long + ": 1\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n",
		`{"profile":"tile-merge","` + long + `":1}`,
		"profile: tile-merge\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\nseedCommitment: " + long + "\n",
	} {
		if _, err := Decode("l.yaml", []byte(text)); err == nil || len(err.Error()) > 300 {
			t.Errorf("%.300v", err)
		}
	}
}

// TestSpawnLogPlaces: a spawn's cell beyond any board of the log's width
// says so, not that the token lacks its spawn.
func TestSpawnLogPlaces(t *testing.T) {
	mustDecodeFail(t, "p.yaml", "profile: tile-merge\nstart: |\n  2 2 . .\n  . . . .\n  . . . .\n  . . . .\nmoves: L64:2\nclaim: {score: 4, maxTile: 4, moves: 1}\n",
		"moves: character 1: move 'L' spawns in cell 64, outside any board of 4 columns")
}

// TestCommitmentLowerCase: a seed commitment is "sha256:" and 64
// lower-case hex digits, as documented; upper case is refused, not
// matched leniently.
func TestCommitmentLowerCase(t *testing.T) {
	c, _ := Commitment("7")
	text := "profile: tile-merge\nseed: \"7\"\nseedCommitment: %s\nmoves: LLUR\nclaim: {score: 12, maxTile: 8, moves: 4}\n"
	r, err := Decode("c.yaml", []byte(strings.Replace(text, "%s", c, 1)))
	if err != nil || !NewVerifier().Verify(r).Valid {
		t.Fatalf("the lower-case commitment: %v", err)
	}
	mustDecodeFail(t, "c.yaml", strings.Replace(text, "%s", "SHA256:"+strings.ToUpper(c[7:]), 1), "c.yaml:3:1: seedCommitment")
	mustDecodeFail(t, "c.yaml", strings.Replace(text, "%s", "sha256:"+strings.ToUpper(c[7:]), 1), "lower-case hex")
}

// TestRNGOnEveryReplay: rng names a seeded replay's generator; beside a
// start board (a replay that records its spawns) any rng is refused, as
// an unknown one is for a seeded replay.
func TestRNGOnEveryReplay(t *testing.T) {
	mustDecodeFail(t, "g.yaml", "profile: tile-merge\nrng: mt19937-bogus\nstart: |\n  2 2 . .\n  . . . .\n  . . . .\n  . . . .\nmoves: L3:2\nclaim: {score: 4, maxTile: 4, moves: 1}\n",
		"g.yaml:2:1: rng names the generator of a seeded replay's spawns")
	r, err := Decode("g.yaml", []byte("profile: tile-merge\nrng: mt19937-bogus\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if vd := NewVerifier().Verify(r); vd.Reason != Refused || !strings.Contains(vd.Error, `"mt19937-bogus"`) {
		t.Errorf("%s: %s", vd.Reason, vd.Error)
	}
}

// TestSetupInVerdict: the proof states the setup the game was verified
// under, and the canonical form leaves the setup out when it changes
// nothing: no setup, setup {} and setup {target: 2048} hash the same, an
// open-ended run does not.
func TestSetupInVerdict(t *testing.T) {
	play := playGame(t, "online-2048", "setup", 40, false)
	hashes := map[string]string{}
	for _, setup := range []string{"", "setup: {}\n", "setup: {target: 2048}\n", "setup: {target: 2048, openEnded: false}\n", "setup: {openEnded: true}\n"} {
		r := *play
		text := string(r.EncodeYAML(0))
		text = strings.Replace(text, "profile: online-2048\n", "profile: online-2048\n"+setup, 1)
		d, err := Decode("s.yaml", []byte(text))
		if err != nil {
			t.Fatalf("%q: %v", setup, err)
		}
		vd := NewVerifier().Verify(d)
		if !vd.Valid {
			t.Fatalf("%q: %s %v", setup, vd.Reason, vd.Divergence)
		}
		hashes[setup] = vd.SHA256
		if open := strings.Contains(setup, "openEnded: true"); open != strings.Contains(vd.Proved(), "setup open-ended") || open != (vd.Setup != nil) {
			t.Errorf("%q: the proof %q, setup %+v", setup, vd.Proved(), vd.Setup)
		}
	}
	if h := hashes[""]; hashes["setup: {}\n"] != h || hashes["setup: {target: 2048}\n"] != h || hashes["setup: {target: 2048, openEnded: false}\n"] != h {
		t.Errorf("equal games hash differently: %v", hashes)
	}
	if hashes["setup: {openEnded: true}\n"] == hashes[""] {
		t.Error("an open-ended run hashes as the run that stops at the target")
	}
}

// BenchmarkHostile decodes the worst inputs of docs/security.md and
// reports what each costs: bytes allocated per byte of input, and time.
func BenchmarkHostile(b *testing.B) {
	moves := strings.Repeat("LRUD", 1<<20) // a valid 4 MB move log
	for _, tc := range []struct{ name, text string }{
		{"8MB-flow-list-in-source", "source: [" + strings.Repeat("0,", 4<<20) + "0]\nprofile: tile-merge\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n"},
		{"4MB-claim-board", "profile: tile-merge\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1, board: [" + strings.Repeat("[0],", 1<<20) + "[0]]}\n"},
		{"60000-keys", "profile: tile-merge\nseed: \"7\"\nmoves: L\nclaim:\n" + func() string {
			var sb strings.Builder
			for i := range 60000 {
				fmt.Fprintf(&sb, "  k%d: 1\n", i)
			}
			return sb.String()
		}()},
		{"500-nodes-under-the-limit", "source: [" + strings.Repeat("0,", 495) + "0]\nprofile: tile-merge\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n"},
		{"2000-repeated-keys", "profile: tile-merge\nseed: \"7\"\nmoves: L\nclaim:\n" + strings.Repeat("  x: 1\n", 2000)},
		{"JSON-case-variant-keys", `{"profile":"tile-merge","seed":"7","moves":"L","claim":{"score":0,"maxTile":4,"moves":1},"Claim":{}}`},
		{"4MB-move-log-YAML", "profile: tile-merge\nseed: \"7\"\nmoves: " + moves + "\nclaim: {score: 0, maxTile: 4, moves: 1}\n"},
		{"4MB-move-log-JSON", `{"profile":"tile-merge","seed":"7","moves":"` + moves + `","claim":{"score":0,"maxTile":4,"moves":1}}`},
		{"4MB-spawn-log-of-undos", `{"profile":"online-2048","start":"2 2 . ./. . . ./. . . ./. . . .","moves":"` + strings.Repeat("Z", 4<<20) + `","claim":{"score":0,"maxTile":4,"moves":1}}`},
		{"4MB-spawn-log-of-moves", `{"profile":"tile-merge","start":"2 2 . ./. . . ./. . . ./. . . .","moves":"` + strings.Repeat("L0:2", 1<<20) + `","claim":{"score":0,"maxTile":4,"moves":1}}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			data := []byte(tc.text)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				Decode("h.yaml", data)
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(data)), "alloc-bytes/input-byte")
			b.ReportMetric(float64(len(data)), "input-bytes")
		})
	}
}

// TestErrorsDoNotEchoTheFile: a file that is not a replay (a secret a
// path pointed at) is refused without its text in the error, whatever its
// shape; a field name or a plain value is still named.
func TestErrorsDoNotEchoTheFile(t *testing.T) {
	const secret = "$6$abcdefsecrethash"
	for _, doc := range []string{
		"root:" + secret + ":19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n",
		"root: " + secret + "\n",
		"{\"root\": \"" + secret + "\"}",
		"{\"profile\": \"tile-merge\", \"seed\": {\"" + secret + "\": 1}}",
		"profile: tile-merge\nseed: \"7\"\nmoves: L\nclaim: {score: " + secret + ", maxTile: 4, moves: 1}\n",
		"secret line one " + secret + " two\n",
	} {
		_, err := Decode("shadow", []byte(doc))
		if err == nil || strings.Contains(err.Error(), "secret") {
			t.Errorf("%q: %v", doc, err)
		}
	}
	_, err := Decode("r.yaml", []byte("profile: tile-merge\nsead: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n"))
	if err == nil || !strings.Contains(err.Error(), `unknown field "sead"`) {
		t.Errorf("a misspelt field: %v, want it named", err)
	}
}

// TestLongStringDescribed: a long string where another kind of value goes
// is described by its size, in words that read, never echoed.
func TestLongStringDescribed(t *testing.T) {
	mustDecodeFail(t, "l.yaml", "profile: tile-merge\nseed: \"7\"\nmoves: L\nclaim: \""+strings.Repeat("x", 100)+"\"\n",
		"l.yaml:4:8: claim: a string of 100 bytes where a mapping goes")
}

// TestSeedNumbersSafe: a seed written as a number beyond 2^53-1 is an
// error in every form (JSON, YAML, and each fast path), since JavaScript
// reads 9007199254740992 and 9007199254740993 as one number: two games
// for the verifier would be one seed for a page (issue 25, item 10). The
// largest safe number, and any seed as a string, still read.
func TestSeedNumbersSafe(t *testing.T) {
	for _, seed := range []string{"9007199254740992", "9007199254740993", "-9007199254740993", "123456789012345678901"} {
		mustDecodeFail(t, "s.json", `{"profile":"tile-merge","seed":`+seed+`,"moves":"L","claim":{"score":0,"maxTile":4,"moves":1}}`,
			"s.json:1:32: seed: "+seed+" is beyond 2^53-1")
		want := " is beyond 2^53-1"
		if len(seed) > 20 {
			want = " is not a seed" // beyond 64 bits YAML's reader takes it for no whole number
		}
		mustDecodeFail(t, "s.yaml", "profile: tile-merge\nseed: "+seed+"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n",
			"s.yaml:2:7: seed: "+seed+want)
	}
	// -0 is the number 0, text "0", to JSON.parse and YAML's core schema,
	// and would be the seed text "-0" here: refused, in both forms and on
	// both of YAML's paths (the plain reader and the library's).
	for _, doc := range []string{
		`{"profile":"tile-merge","seed":-0,"moves":"L","claim":{"score":0,"maxTile":4,"moves":1}}`,
		"{\n  \"profile\": \"tile-merge\",\n  \"seed\": -0, \"moves\": \"L\",\n  \"claim\": {\"score\": 0, \"maxTile\": 4, \"moves\": 1}\n}\n",
		"profile: tile-merge\nseed: -0\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n",
		"profile: 'tile-merge'\nseed: -0\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\nsource: 'x'\n",
	} {
		if _, err := Decode("s", []byte(doc)); err == nil || !strings.Contains(err.Error(), "seed: -0 is the number 0") {
			t.Errorf("%q: %v", doc, err)
		}
	}
	for _, doc := range []string{
		`{"profile":"tile-merge","seed":"-0","moves":"L","claim":{"score":0,"maxTile":4,"moves":1}}`,
		`{"profile":"tile-merge","seed":-7,"moves":"L","claim":{"score":0,"maxTile":4,"moves":1}}`,
		`{"profile":"tile-merge","seed":9007199254740991,"moves":"L","claim":{"score":0,"maxTile":4,"moves":1}}`,
		`{"profile":"tile-merge","seed":"9007199254740993","moves":"L","claim":{"score":0,"maxTile":4,"moves":1}}`,
		"profile: tile-merge\nseed: 9007199254740991\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n",
	} {
		if _, err := Decode("s.json", []byte(doc)); err != nil {
			t.Errorf("%s: %v", doc, err)
		}
	}
}

// TestLongFieldValuesCut: a 60 KB profile, rng or claim.result is named
// in its error by its size, never quoted whole (issue 25, item 14), in
// YAML and in JSON, through the command's path (VerifyFile).
func TestLongFieldValuesCut(t *testing.T) {
	long := strings.Repeat("x", 60000)
	for _, doc := range []string{
		"profile: " + long + "\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n",
		"profile: tile-merge\nrng: " + long + "\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n",
		"profile: tile-merge\nseed: \"7\"\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1, result: " + long + "}\n",
		`{"profile":"` + long + `","seed":"7","moves":"L","claim":{"score":0,"maxTile":4,"moves":1}}`,
		`{"profile":"tile-merge","rng":"` + long + `","seed":"7","moves":"L","claim":{"score":0,"maxTile":4,"moves":1}}`,
		`{"profile":"tile-merge","seed":"7","moves":"L","claim":{"score":0,"maxTile":4,"moves":1,"result":"` + long + `"}}`,
	} {
		vd := NewVerifier().VerifyFile("l", []byte(doc))
		if line := vd.AppendJSON(nil); len(line) > 1000 {
			t.Errorf("%.60s...: a JSON verdict of %d bytes", doc, len(line))
		}
		if vd.Valid || len(vd.Error) > 300 || !strings.Contains(vd.Error, "60000 bytes") {
			t.Errorf("%.60s...: %s, %d bytes: %.300s", doc, vd.Reason, len(vd.Error), vd.Error)
		}
	}
}

// pad returns the seeded r with a move and its undo inserted before
// every every-th action (none when every is 0): the same game, played with looks ahead; in the
// spawn-recorded form when spawnForm.
func pad(t *testing.T, r *Replay, every int, spawnForm bool) *Replay {
	t.Helper()
	p, err := engine.BuiltinProfile(r.Profile)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(p, *r.Seed)
	if err != nil {
		t.Fatal(err)
	}
	start := g.Board()
	out := *r
	out.Actions, out.Spawns = nil, nil
	move := func(d engine.Direction) {
		step, err := g.Move(d)
		if err != nil {
			t.Fatal(err)
		}
		out.Actions, out.Spawns = append(out.Actions, engine.Action(d)), append(out.Spawns, step.Spawn)
	}
	for i, a := range r.Actions {
		if moves := g.LegalMoves(); every > 0 && i%every == 0 && len(moves) > 0 {
			move(moves[(i/every)%len(moves)])
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
			out.Actions, out.Spawns = append(out.Actions, engine.Undo), append(out.Spawns, engine.Spawn{})
		}
		move(engine.Direction(a))
	}
	if spawnForm {
		out.Seed, out.Start = nil, &start
	} else {
		out.Spawns = nil
	}
	return &out
}

// TestGameIdentity: two paddings of one online-2048 game with move+undo
// pairs have different canonical hashes (sha256 identifies the file's
// game with its log) and one gameSha256 (the game as played), the
// unpadded game's; a different game has another (issue 25, item 15).
func TestGameIdentity(t *testing.T) {
	for _, spawnForm := range []bool{false, true} {
		seeded := playGame(t, "online-2048", "identity", 120, false)
		base, other := pad(t, seeded, 0, spawnForm), pad(t, playGame(t, "online-2048", "identity-2", 120, false), 0, spawnForm)
		v := NewVerifier()
		vds := []Verdict{v.Verify(base), v.Verify(pad(t, seeded, 3, spawnForm)), v.Verify(pad(t, seeded, 5, spawnForm)), v.Verify(other)}
		for i, vd := range vds {
			if !vd.Valid || len(vd.GameSHA256) != 64 {
				t.Fatalf("spawns %v, replay %d: %+v %v", spawnForm, i, vd, vd.Divergence)
			}
		}
		if vds[1].SHA256 == vds[2].SHA256 || vds[0].SHA256 == vds[1].SHA256 {
			t.Errorf("spawns %v: the paddings share a canonical hash", spawnForm)
		}
		if vds[0].GameSHA256 != vds[0].SHA256 || vds[1].GameSHA256 != vds[0].GameSHA256 || vds[2].GameSHA256 != vds[0].GameSHA256 {
			t.Errorf("spawns %v: game hashes %s %s %s", spawnForm, vds[0].GameSHA256, vds[1].GameSHA256, vds[2].GameSHA256)
		}
		if vds[3].GameSHA256 == vds[0].GameSHA256 {
			t.Errorf("spawns %v: two games share a game hash", spawnForm)
		}
		if line := string(vds[1].AppendJSON(nil)); !strings.Contains(line, `"gameSha256":"`+vds[0].SHA256+`"`) {
			t.Errorf("the JSON verdict: %s", line)
		}
	}
}

// BenchmarkHostileVerify verifies the worst shapes a byte of the whole
// path a file takes (VerifyFile: decoding, replaying, the canonical form)
// and reports what each allocates, in all and a byte of input: a spawn-
// recorded log of undos at the action bound, padded with spaces to 64
// MiB; one beyond the bound (refused while counting); a seeded 64 MiB log
// of undos. docs/security.md has the figures.
func BenchmarkHostileVerify(b *testing.B) {
	head := `{"profile":"online-2048","start":"2 2 . ./. . . ./. . . ./. . . .","moves":"`
	tail := `","claim":{"score":0,"maxTile":4,"moves":1}}`
	for _, tc := range []struct{ name, text string }{
		{"64MiB-spawn-log-4M-undos", head + strings.Repeat("Z", MaxSpawnLogActions) + strings.Repeat(" ", 64<<20-MaxSpawnLogActions-200) + tail},
		{"60MiB-spawn-log-of-undos", head + strings.Repeat("Z", 60<<20) + tail},
		{"64MiB-seeded-log-of-undos", `{"profile":"online-2048","seed":"7","moves":"` + strings.Repeat("Z", 64<<20-200) + tail},
	} {
		b.Run(tc.name, func(b *testing.B) {
			data := []byte(tc.text)
			v := NewVerifier()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				v.VerifyFile("h.json", data)
			}
			runtime.ReadMemStats(&after)
			alloc := float64(after.TotalAlloc-before.TotalAlloc) / float64(b.N)
			b.ReportMetric(alloc/float64(len(data)), "alloc-bytes/input-byte")
			b.ReportMetric(alloc/(1<<20), "alloc-MiB")
		})
	}
}

// TestSeedYAML11: a plain seed that YAML 1.2 reads as a string and YAML
// 1.1 (PyYAML, Go's yaml.v2, Ruby's Psych) as a boolean or a number
// (yes, On, n, 1:20, which is 80) is refused: a leaderboard reading the
// file with one of them would replay another seed ("True", "80"). Quoted
// or tagged it is the string, and words that are no such value are kept.
func TestSeedYAML11(t *testing.T) {
	doc := func(seed string) string {
		return "profile: tile-merge\nseed: " + seed + "\nmoves: L\nclaim: {score: 0, maxTile: 4, moves: 1}\n"
	}
	for _, seed := range []string{"yes", "Yes", "YES", "on", "ON", "off", "no", "y", "N", "1:20", "190:20:30", "-1:20", "1:20.5", "0:20.5", "1_0:20"} {
		_, err := Decode("s.yaml", []byte(doc(seed)))
		if err == nil || !strings.Contains(err.Error(), "s.yaml:2:7: seed: ") || !strings.Contains(err.Error(), "to a YAML 1.1 reader") {
			t.Errorf("seed: %s: %v", seed, err)
		}
	}
	for _, seed := range []string{`"yes"`, "'on'", "!!str yes", "yesno", "1:60", "1:5a", "a:1", "12:345", "0:20", "1_0:2_0", "abc"} {
		r, err := Decode("s.yaml", []byte(doc(seed)))
		if err != nil {
			t.Errorf("seed: %s: %v", seed, err)
		} else if want := strings.Trim(strings.TrimPrefix(seed, "!!str "), `"'`); r.Seed == nil || *r.Seed != want {
			t.Errorf("seed: %s read as %v", seed, r.Seed)
		}
	}
}

// TestLogErrorPlaced: an error in a move log written as a literal block
// (as tileproof record writes a long one, 80 characters a line) names the
// character's own line and column, not the key's: a bad letter 2,681
// characters into a log was "FILE:6:1: moves: character 2681", now
// "FILE:40:10". Another form keeps the key's place.
func TestLogErrorPlaced(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"profile: tile-merge\nseed: \"7\"\nmoves: |\n  LLUR\n  LLQR\nclaim: {score: 0, maxTile: 2, moves: 3}\n", "r.yaml:5:5: moves: character 8: 'Q' is not an action"},
		{"profile: tile-merge\r\nseed: \"7\"\r\nmoves: |-\r\n  LLUR\r\n\r\n    LL Q\r\nclaim: {score: 0, maxTile: 2, moves: 3}\r\n", "r.yaml:6:8: moves: character 12: 'Q' is not an action"},
		{"profile: tile-merge\nstart: [[2, 0], [0, 0]]\nmoves: |\n  L1:2 U0:2\n  R99:2\nclaim: {score: 0, maxTile: 2, moves: 3}\n", "r.yaml:5:3: moves: character 11: move 'R' spawns in cell 99"},
		{"profile: tile-merge\nstart: [[2, 0], [0, 0]]\nmoves: |\n  L1:2 U\nclaim: {score: 0, maxTile: 2, moves: 3}\n", "r.yaml:4:8: moves: character 6: move 'U' needs its spawn"},
		{"profile: tile-merge\nseed: \"7\"\nmoves: LLQR\nclaim: {score: 0, maxTile: 2, moves: 3}\n", "r.yaml:3:1: moves: character 3: 'Q'"},
		{"profile: tile-merge\nseed: \"7\"\nmoves: >\n  LLUR\n  LLQR\nclaim: {score: 0, maxTile: 2, moves: 3}\n", "r.yaml:3:1: moves: character 8: 'Q'"},
		{`{"profile":"tile-merge","seed":"7","moves":"LL\nQR","claim":{"score":0,"maxTile":2,"moves":3}}`, "r.yaml:1:36: moves: character 4: 'Q'"},
	} {
		if _, err := Decode("r.yaml", []byte(tc.doc)); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %s...", tc.doc, err, tc.want)
		}
	}
}
