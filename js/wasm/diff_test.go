package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/testkit"
	"github.com/tileproof/tileproof/internal/testkit/games"
	"github.com/tileproof/tileproof/replay"
)

// The differential test (issue 26, item 2): the kit's verifier, the module
// built from this package and run in node by js/examples/verify.mjs, gives
// the verdict lines `tileproof verify --json` gives, byte for byte, over
// the corpus and its tampered set, 10,000 generated games and the replay
// fuzzers' hostile inputs. It needs node (skipped without, unless
// TILEPROOF_NODE=required) and builds the command and the module.

// repoRoot is the repository's root, from this package's directory.
const repoRoot = "../.."

// TestMain removes what the tests built.
func TestMain(m *testing.M) { testkit.Main(m) }

// tools builds the command and the module, once, and returns their
// paths; the test is skipped without node.
func tools(t *testing.T) (cmd, wasm string) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		testkit.Absent(t, "TILEPROOF_NODE", "node not found: the kit's verifier is not run")
	}
	if testing.Short() {
		t.Skip("-short: the module is not built")
	}
	return testkit.Binary(t, "./cmd/tileproof"), testkit.KitWasm(t) // the module as npm run build makes it
}

// run runs a verifier with args and stdin and returns its stdout.
func run(t *testing.T, wasm string, stdin []byte, name string, args ...string) []byte {
	t.Helper()
	c := exec.Command(name, args...)
	c.Dir = repoRoot
	c.Env = append(os.Environ(), "TILEPROOF_KIT_WASM="+wasm)
	c.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	if strings.Contains(errb.String(), "panic") || strings.Contains(errb.String(), "Error:") {
		t.Fatalf("%s %s: %s", name, strings.Join(args, " "), errb.String())
	}
	return out.Bytes()
}

// same compares the command's lines and the kit's byte for byte, but for
// the way to add a profile, reporting the first lines that differ.
func same(t *testing.T, what string, cmd, kit []byte) {
	t.Helper()
	// The one difference made on purpose: the kit's refusal of an unknown
	// profile says how its user adds one (howToAdd), as the command's does.
	kit = bytes.ReplaceAll(kit, []byte("given: "+howToAdd+")"), []byte("given: verify --profile FILE)"))
	if bytes.Equal(cmd, kit) {
		return
	}
	a, b := strings.Split(string(cmd), "\n"), strings.Split(string(kit), "\n")
	bad := 0
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x == y {
			continue
		}
		if bad++; bad <= 3 {
			t.Errorf("%s: line %d differs:\ncommand: %s\nkit:     %s", what, i+1, x, y)
		}
	}
	t.Errorf("%s: %d of %d lines differ", what, bad, len(a))
}

// randomGames writes n random games of profile, seeded or spawn-recorded, as
// JSON Lines; every seventh claims a score it did not make, every
// eleventh has a move cut out of its log.
func randomGames(t *testing.T, profile string, n int, spawns bool, seed uint64) []byte {
	t.Helper()
	p, err := engine.BuiltinProfile(profile)
	if err != nil {
		t.Fatal(err)
	}
	return gamesOf(t, p, n, spawns, seed)
}

// gamesOf is randomGames of the profile p.
func gamesOf(t *testing.T, p *engine.Profile, n int, spawns bool, seed uint64) []byte {
	t.Helper()
	rules, err := engine.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 26))
	var rs []*replay.Replay
	for i := range n {
		s := fmt.Sprintf("diff-%d-%d", seed, i)
		g, err := rules.NewGame(s)
		if err != nil {
			t.Fatal(err)
		}
		r := &replay.Replay{Profile: p.Name}
		if spawns {
			b := g.Board()
			r.Start = &b
		} else {
			r.Seed = &s
		}
		for limit := 50 + rng.IntN(400); !g.Over() && g.Moves() < limit; {
			legal := g.LegalMoves()
			if len(legal) == 0 {
				break
			}
			a := engine.Action(legal[rng.IntN(len(legal))])
			st, err := g.Do(a)
			if err != nil {
				t.Fatal(err)
			}
			r.Actions = append(r.Actions, a)
			if spawns {
				r.Spawns = append(r.Spawns, st.Spawn)
			}
		}
		r.Claim = replay.Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves()}
		switch {
		case i%7 == 3:
			r.Claim.Score += 4
		case i%11 == 5 && len(r.Actions) > 2:
			k := rng.IntN(len(r.Actions) - 1)
			r.Actions = append(r.Actions[:k], r.Actions[k+1:]...)
			if spawns {
				r.Spawns = append(r.Spawns[:k], r.Spawns[k+1:]...)
			}
		}
		rs = append(rs, r)
	}
	return jsonLines(rs)
}

// jsonLines returns the replays as JSON Lines.
func jsonLines(rs []*replay.Replay) []byte {
	var out bytes.Buffer
	for _, r := range rs {
		out.Write(r.EncodeJSON())
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// TestDifferentialCorpus: the corpus, with its tampered and unreadable
// replays, named as a directory and each file by name.
func TestDifferentialCorpus(t *testing.T) {
	t.Parallel()
	cmd, wasm := tools(t)
	args := []string{"verify", "--json", "replays"}
	files, _ := filepath.Glob(filepath.Join(repoRoot, "replays", "*", "*.yaml"))
	for _, f := range files {
		rel, _ := filepath.Rel(repoRoot, f)
		args = append(args, rel)
	}
	want := run(t, wasm, nil, cmd, args...)
	if n := bytes.Count(want, []byte("\n")); n < 2*len(files) {
		t.Fatalf("the command gave %d lines for %d files", n, len(files))
	}
	same(t, "replays/", want, run(t, wasm, nil, "node", append([]string{"js/examples/verify.mjs"}, args[2:]...)...))
}

// TestDifferentialGames: 10,000 generated games, seeded and
// spawn-recorded, of two profiles, some of them false, as .jsonl files
// and through stdin in one stream.
func TestDifferentialGames(t *testing.T) {
	t.Parallel()
	cmd, wasm := tools(t)
	dir := t.TempDir()
	var all [][]byte
	var names []string
	for i, c := range []struct {
		profile string
		spawns  bool
	}{{"tile-merge", false}, {"tile-merge", true}, {"classic", false}, {"classic", true}} {
		data := randomGames(t, c.profile, 2500, c.spawns, uint64(i+1))
		name := filepath.Join(dir, fmt.Sprintf("%s-%v.jsonl", c.profile, c.spawns))
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		all, names = append(all, data), append(names, name)
	}
	want := run(t, wasm, nil, cmd, append([]string{"verify", "--json"}, names...)...)
	if n := bytes.Count(want, []byte("\n")); n != 10000 {
		t.Fatalf("the command gave %d verdicts for 10,000 games", n)
	}
	if valid := bytes.Count(want, []byte(`"valid":true`)); valid < 5000 || valid > 9000 {
		t.Fatalf("%d of 10,000 games valid: the generator does not make what it should", valid)
	}
	same(t, "games", want, run(t, wasm, nil, "node", append([]string{"js/examples/verify.mjs"}, names...)...))
	stdin := bytes.Join(all, nil)
	same(t, "games on stdin", run(t, wasm, stdin, cmd, "verify", "--json", "-"), run(t, wasm, stdin, "node", "js/examples/verify.mjs", "-"))
}

// hostile are inputs of the replay fuzzers' seed corpora
// (replay/testdata/fuzz), and a few of this test's own: text a verdict
// quotes that must be escaped as the command escapes it, and files named
// with it.
func hostile(t *testing.T) map[string][]byte {
	t.Helper()
	in := map[string][]byte{
		"bidi.yaml":                       []byte("profile: \"tile\u202emerge\"\nseed: x\nmoves: l\nclaim: {score: 0, maxTile: 4, moves: 1}\n"),
		"c1.yaml":                         []byte("profile: \"a\u0085<b>&\u2028\"\nseed: x\nmoves: l\n"),
		"bad-utf8.json":                   []byte("{\"profile\": \"\xff\xfe\", \"seed\": \"\xc0\"}"),
		"name\u202e.yaml":                 []byte("profile: tile-merge\n"),
		"name\u061c\U000e0001\u00ad.json": []byte("{}"),
		"lines.jsonl":                     []byte("{\"profile\":\"\u200b\"}\n  \n not json\r\n{\"a\":\"\x1b[2K\"}\n{"),
		"empty.yaml":                      nil,
		"deep.json":                       []byte(strings.Repeat("[", 10000)),
	}
	dirs, err := filepath.Glob(filepath.Join(repoRoot, "replay", "testdata", "fuzz", "*", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no seed corpora under replay/testdata/fuzz: %v", err)
	}
	for _, f := range dirs {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for j, l := range lines[1:] {
			l = strings.TrimSpace(l)
			open := strings.IndexByte(l, '(')
			if open < 0 || !strings.HasSuffix(l, ")") {
				continue
			}
			v, err := strconv.Unquote(l[open+1 : len(l)-1])
			if err != nil {
				continue // not a string or bytes value
			}
			base := filepath.Base(filepath.Dir(f)) + "-" + filepath.Base(f) + "-" + strconv.Itoa(j)
			in[base+".yaml"] = []byte(v)
			in[base+".jsonl"] = []byte(v)
		}
	}
	return in
}

// TestDifferentialHostile: the hostile inputs as files of a directory
// (beside a case pack, which both skip), each also named as a file, and
// all on stdin.
func TestDifferentialHostile(t *testing.T) {
	t.Parallel()
	cmd, wasm := tools(t)
	dir := t.TempDir()
	var names []string
	var stdin []byte
	for name, data := range hostile(t) {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, path)
		stdin = append(append(stdin, data...), '\n')
	}
	// A case pack inside the directory is skipped by both.
	if err := os.Mkdir(filepath.Join(dir, "cases"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"pack.yaml": "name: observed\n", "case.yaml": "profiles: [classic]\n"} {
		if err := os.WriteFile(filepath.Join(dir, "cases", name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A pack.yaml that is a link makes a pack only as the command's root
	// reads it: relative and inside the directory; an absolute one does
	// not, and the cases beside it are read (as unreadable replays).
	for name, to := range map[string]string{"linked-in": "../cases/pack.yaml", "linked-abs": filepath.Join(dir, "cases", "pack.yaml")} {
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(to, filepath.Join(dir, name, "pack.yaml")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "case.yaml"), []byte("profiles: [classic]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := append([]string{dir}, names...)
	same(t, "hostile files", run(t, wasm, nil, cmd, append([]string{"verify", "--json"}, args...)...),
		run(t, wasm, nil, "node", append([]string{"js/examples/verify.mjs"}, args...)...))
	same(t, "hostile on stdin", run(t, wasm, stdin, cmd, "verify", "--json", "-"), run(t, wasm, stdin, "node", "js/examples/verify.mjs", "-"))
}

// fours writes n spawn-recorded tile-merge games whose every spawn is a 4
// in the first cell the slide left empty: valid, and implausible, so
// that --strict fails them.
func fours(t *testing.T, n int) []byte {
	t.Helper()
	rules := games.Rules(t, "tile-merge")
	var rs []*replay.Replay
	for i := range n {
		g, err := rules.NewGame(fmt.Sprint("fours-", i))
		if err != nil {
			t.Fatal(err)
		}
		start := g.Board()
		r := &replay.Replay{Profile: "tile-merge", Start: &start}
	moves:
		for k := 0; k < 40+i%60 && !g.Over(); k++ {
			legal := g.LegalMoves()
			d := legal[(k+i)%len(legal)]
			for cell := range start.Cells() {
				s := engine.Spawn{Row: cell / 4, Col: cell % 4, Value: 4}
				if _, err := g.MoveSpawn(d, s); err == nil {
					r.Actions, r.Spawns = append(r.Actions, engine.Action(d)), append(r.Spawns, s)
					continue moves
				}
			}
			t.Fatalf("game %d: no cell for the spawn after move %d", i, k)
		}
		r.Claim = replay.Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves()}
		rs = append(rs, r)
	}
	return jsonLines(rs)
}

// TestDifferentialProfileStrict: --profile (a variant's profile file, and
// games of it) and --strict (games whose spawns are implausible among
// others) as the command takes them.
func TestDifferentialProfileStrict(t *testing.T) {
	t.Parallel()
	cmd, wasm := tools(t)
	dir := t.TempDir()
	profile := filepath.Join("conformance", "adapters", "webcomponent-2048.yaml")
	data, err := os.ReadFile(filepath.Join(repoRoot, profile))
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.ParseProfile(profile, data)
	if err != nil {
		t.Fatal(err)
	}
	variant := filepath.Join(dir, "variant.jsonl")
	var batch []byte
	for i, spawns := range []bool{false, true} {
		batch = append(batch, gamesOf(t, p, 200, spawns, uint64(40+i))...)
	}
	if err := os.WriteFile(variant, batch, 0o644); err != nil {
		t.Fatal(err)
	}
	implausible := filepath.Join(dir, "fours.jsonl")
	if err := os.WriteFile(implausible, append(fours(t, 100), randomGames(t, "tile-merge", 100, true, 7)...), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--strict", "--profile", profile, variant, implausible}
	want := run(t, wasm, nil, cmd, append([]string{"verify", "--json"}, args...)...)
	if n := bytes.Count(want, []byte(`"reason":"implausible"`)); n < 50 {
		t.Fatalf("--strict failed %d of the 100 games of fours", n)
	}
	if n := bytes.Count(want, []byte(`"profile":"2048-webcomponent"`)); n < 300 {
		t.Fatalf("%d verdicts under the variant's profile", n)
	}
	same(t, "--strict --profile", want, run(t, wasm, nil, "node", append([]string{"js/examples/verify.mjs"}, args...)...))
	// Without the profile, its games are the command's refusals too.
	same(t, "without --profile", run(t, wasm, nil, cmd, "verify", "--json", variant), run(t, wasm, nil, "node", "js/examples/verify.mjs", variant))
}

// TestDifferentialFileNames: a directory's files whose names are not
// UTF-8, or hold control characters, are read and named by the kit as by
// the command, and verify.mjs shows them on stderr escaped (before, it
// took each name as UTF-8 text: it could not open a file whose name is
// not, and stopped with exit status 2; and it wrote a link's name to the
// terminal as it was, escape sequences and all).
func TestDifferentialFileNames(t *testing.T) {
	t.Parallel()
	cmd, wasm := tools(t)
	dir := t.TempDir()
	replayText, err := os.ReadFile(filepath.Join(repoRoot, "replays", "minimal.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ok.yaml", "bad\xff.yaml", "cut\xe2\x82.yaml", "nel\xc2\x85.json", "z\xed\xa0\x80.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, name), replayText, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("ok.yaml", filepath.Join(dir, "link\x1b[2J.yaml")); err != nil {
		t.Fatal(err)
	}
	want := run(t, wasm, nil, cmd, "verify", "--json", dir)
	if n := bytes.Count(want, []byte("\n")); n != 5 {
		t.Fatalf("the command gave %d verdicts of the 5 files: %s", n, want)
	}
	c := exec.Command("node", "js/examples/verify.mjs", dir)
	c.Dir = repoRoot
	c.Env = append(os.Environ(), "TILEPROOF_KIT_WASM="+wasm)
	var got, stderr bytes.Buffer
	c.Stdout, c.Stderr = &got, &stderr
	if err := c.Run(); err != nil {
		t.Errorf("verify.mjs: %v; stderr: %q", err, stderr.String())
	}
	same(t, "file names", want, got.Bytes())
	if bytes.ContainsAny(stderr.Bytes(), "\x1b\x85") || !strings.Contains(stderr.String(), `link\x1b[2J.yaml`) {
		t.Errorf("verify.mjs's stderr, the link's name not escaped: %q", stderr.String())
	}
}

// TestDifferentialMissingArgument: an argument that does not exist is
// found before any replay is read, by verify.mjs as by the command (which
// looks at every argument first): no verdict line, exit status 2 (before,
// verify.mjs wrote the verdicts of the arguments before it, then failed).
func TestDifferentialMissingArgument(t *testing.T) {
	t.Parallel()
	cmd, wasm := tools(t)
	args := []string{"replays/minimal.yaml", "-", "replays/no-such-replay.yaml"}
	for _, c := range []*exec.Cmd{
		exec.Command(cmd, append([]string{"verify", "--json"}, args...)...),
		exec.Command("node", append([]string{"js/examples/verify.mjs"}, args...)...),
	} {
		c.Dir = repoRoot
		c.Env = append(os.Environ(), "TILEPROOF_KIT_WASM="+wasm)
		c.Stdin = strings.NewReader(`{"profile":"tile-merge","seed":"7","moves":"","claim":{"score":0,"maxTile":4,"moves":0}}` + "\n")
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		err := c.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || out.Len() != 0 || !strings.Contains(errb.String(), "no-such-replay.yaml") {
			t.Errorf("%s: %v, stdout %q, stderr %q; want exit status 2, no verdict, the missing file named", filepath.Base(c.Path), err, out.String(), errb.String())
		}
	}
}
