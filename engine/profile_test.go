package engine

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tileproof/tileproof/internal/strictyaml"
	"go.yaml.in/yaml/v3"
)

func mustProfile(t testing.TB, name string) *Profile {
	t.Helper()
	p, err := BuiltinProfile(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBuiltinProfiles(t *testing.T) {
	want := []string{"classic", "hallabois-3x3", "hallabois-4x4", "hallabois-v1-3x3", "hallabois-v1-4x4", "online-2048", "pgs", "rosetta", "tile-merge"}
	if got := BuiltinNames(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("BuiltinNames() = %v, want %v", got, want)
	}
	// Each is parsed at its first use: every one parses, names its own
	// file, and comes back a copy the caller may change.
	for _, name := range want {
		p, err := BuiltinProfile(name)
		if err != nil || p.Name != name {
			t.Fatalf("BuiltinProfile(%q) = %v, %v", name, p, err)
		}
		p.Rows = 99
		if again, _ := BuiltinProfile(name); again.Rows == 99 {
			t.Fatalf("BuiltinProfile(%q) shares its profile with the caller", name)
		}
	}
	if _, err := BuiltinProfile("../profiles/classic"); err == nil {
		t.Fatal("BuiltinProfile reads a file that is not a built-in profile's")
	}
	// The parameters that tell the profiles apart, as docs/profiles.md's
	// table of the built-in profiles gives them.
	tests := []struct {
		name    string
		win     Win
		illegal IllegalMove
		limit   int
		undo    bool
	}{
		{"classic", Win{2048, Merge, Ask}, Ignore, 0, false},
		{"tile-merge", Win{2048, Reach, Continue}, Reject, 0, false},
		{"pgs", Win{2048, Reach, Stop}, Ignore, 0, false},
		{"online-2048", Win{2048, Reach, Stop}, Ignore, 100000, true},
		{"rosetta", Win{2048, Merge, Stop}, Reject, 0, false},
	}
	for _, tt := range tests {
		p := mustProfile(t, tt.name)
		if p.Win != tt.win || p.Illegal != tt.illegal || p.MoveLimit != tt.limit || p.Undo != tt.undo || p.EndRun != tt.undo {
			t.Errorf("%s: win %+v illegal %v limit %d undo %v endRun %v", tt.name, p.Win, p.Illegal, p.MoveLimit, p.Undo, p.EndRun)
		}
		if p.Rows != 4 || p.Cols != 4 || p.StartTiles != 2 || len(p.Spawn) != 2 || p.Spawn[0] != (SpawnWeight{2, 9}) || p.Spawn[1] != (SpawnWeight{4, 1}) {
			t.Errorf("%s: %dx%d, %d start tiles, spawn %v", tt.name, p.Rows, p.Cols, p.StartTiles, p.Spawn)
		}
		if p.Source == "" || p.Description == "" || p.Version != 1 {
			t.Errorf("%s: source %q, version %d, description %q", tt.name, p.Source, p.Version, p.Description)
		}
		if p.Break != (BreakRule{}) {
			t.Errorf("%s has a break: %+v", tt.name, p.Break)
		}
	}
}

// TestHallaboisProfiles checks the hallabois profiles against the rules
// docs/peers.md reads from the peer's source: where they differ from
// classic, by name.
func TestHallaboisProfiles(t *testing.T) {
	tests := []struct {
		name  string
		side  int
		price uint64
		when  BreakNoMoves
		two   uint64 // the weight of 2 against 1 for 4
		rng   string // the generator a seeded replay pins
	}{
		{"hallabois-4x4", 4, 1000, BreakRefuse, 3, "hallabois-lcg"},
		{"hallabois-3x3", 3, 500, BreakRefuse, 3, "hallabois-lcg"},
		{"hallabois-v1-4x4", 4, 1000, BreakAllow, 9, ""},
		{"hallabois-v1-3x3", 3, 1000, BreakAllow, 9, ""},
	}
	classic := mustProfile(t, "classic")
	for _, tt := range tests {
		p := mustProfile(t, tt.name)
		if p.Rows != tt.side || p.Cols != tt.side || p.StartTiles != 2 {
			t.Errorf("%s: %dx%d, %d start tiles", tt.name, p.Rows, p.Cols, p.StartTiles)
		}
		if diff := cmp.Diff([]SpawnWeight{{2, tt.two}, {4, 1}}, p.Spawn); diff != "" {
			t.Errorf("%s: spawn (-want +got):\n%s", tt.name, diff)
		}
		if p.Win != (Win{2048, Reach, Continue}) || p.Illegal != Reject || p.Undo || p.EndRun || p.MoveLimit != 0 || len(p.Targets) > 0 || p.OpenEnded {
			t.Errorf("%s: win %+v, illegal %v, undo %v, end run %v, limit %d", tt.name, p.Win, p.Illegal, p.Undo, p.EndRun, p.MoveLimit)
		}
		if want := (BreakRule{Limit: 3, Below: 16, Price: tt.price, WhenNoMoves: tt.when}); p.Break != want {
			t.Errorf("%s: break %+v, want %+v", tt.name, p.Break, want)
		}
		// Classic's differences, each by name, and nothing else but the
		// names, the texts and the board.
		q := classic.Clone()
		q.Name, q.Title, q.Source, q.Description, q.Rows, q.Cols = p.Name, p.Title, p.Source, p.Description, p.Rows, p.Cols
		q.Spawn, q.Win, q.Illegal, q.Break = p.Spawn, p.Win, p.Illegal, p.Break
		q.FinishOrder, q.RNG = p.FinishOrder, tt.rng
		if diff := cmp.Diff(q, p); diff != "" {
			t.Errorf("%s differs from classic in more than it states:\n%s", tt.name, diff)
		}
	}
}

// TestParseProfileBreak reads break blocks: a base's break kept, changed
// or removed with limit 0.
func TestParseProfileBreak(t *testing.T) {
	p, err := ParseProfile("b.yaml", []byte("name: cheap\nbase: hallabois-4x4\nbreak: {price: 8}\n"))
	if err != nil || p.Break != (BreakRule{3, 16, 8, BreakRefuse}) {
		t.Errorf("price 8: %+v, %v", p.Break, err)
	}
	p, err = ParseProfile("b.yaml", []byte("name: none\nbase: hallabois-4x4\nbreak: {limit: 0}\n"))
	if err != nil || p.Break != (BreakRule{}) {
		t.Errorf("limit 0: %+v, %v", p.Break, err)
	}
	p, err = ParseProfile("b.yaml", []byte("name: own\nbreak:\n  limit: 1\n  below: 4\n  whenNoMoves: allow\n"))
	if err != nil || p.Break != (BreakRule{1, 4, 0, BreakAllow}) {
		t.Errorf("own: %+v, %v", p.Break, err)
	}
}

func TestParseProfileBreakErrors(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"name: x\nbreak: {limit: -1}\n", "p.yaml:2:9: break.limit: -1 is negative"},
		{"name: x\nbreak: {limit: 1048577, below: 16}\n", "break.limit: 1048577 is above 1048576"},
		{"name: x\nbreak: {price: 5}\n", "break.limit: 0 (no break) takes no other break settings"},
		{"name: x\nbase: hallabois-4x4\nbreak: {limit: 0, price: 5}\n", "break.limit: 0 (no break) takes no other break settings"},
		{"name: x\nbreak: {limit: 1}\n", "break.below: 0 is not a tile of 4 or more"},
		{"name: x\nbreak: {limit: 1, below: 2}\n", "break.below: 2 is not a tile of 4 or more"},
		{"name: x\nbreak: {limit: 1, below: 12}\n", "break.below: 12 is not a tile"},
		{"name: x\nbreak: {limit: 1, below: 16, price: 9007199254740992}\n", "break.price: 9007199254740992 is above 2^53-1"},
		{"name: x\nbreak:\n  limit: 1\n  below: 16\n  whenNoMoves: maybe\n", `p.yaml:5:3: "maybe" is not one of refuse, allow`},
		{"name: x\nbreak: {limit: 1, below: 16, cost: 3}\n", `unknown field "cost"`},
	}
	for _, tt := range tests {
		_, err := ParseProfile("p.yaml", []byte(tt.yaml))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseProfile(%q) = %v, want an error containing %q", tt.yaml, err, tt.want)
		}
	}
}

func TestParseProfileBase(t *testing.T) {
	p, err := ParseProfile("eights.yaml", []byte("name: classic-eights\nbase: classic\nspawn: {8: 1, 2: 8, 4: 1}\nrows: 5\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []SpawnWeight{{2, 8}, {4, 1}, {8, 1}}
	if p.Name != "classic-eights" || p.Rows != 5 || p.Cols != 4 || p.Win.Then != Ask || len(p.Spawn) != 3 || p.Spawn[2] != want[2] || p.Spawn[0] != want[0] {
		t.Errorf("got %+v", p)
	}
	// The base's title and description speak of its own rules (a 4x4
	// board): the file's say whose rules these are, unless it gives its
	// own.
	classic, _ := BuiltinProfile("classic")
	if p.Title != classic.Title+", as this file changes it" || strings.Contains(p.Description, "4x4") || !strings.Contains(p.Description, "classic") {
		t.Errorf("title %q, description %q", p.Title, p.Description)
	}
	own, err := ParseProfile("own.yaml", []byte("name: own\nbase: classic\ntitle: Mine\ndescription: My rules.\n"))
	if err != nil || own.Title != "Mine" || own.Description != "My rules." {
		t.Errorf("a file's own title and description: %+v, %v", own, err)
	}
	// What the base's source leaves unstated, a file states, unless it
	// says otherwise itself.
	for text, want := range map[string][]string{
		"name: tm\nbase: tile-merge\n":                         nil,
		"name: tm\nbase: tile-merge\nunstated: [startTiles]\n": {"startTiles"},
		"name: one\nbase: classic\nunstated: [startTiles]\n":   {"startTiles"},
		"name: p\nbase: pgs\nunstated: [winThen]\n":            {"winThen"},
	} {
		p, err := ParseProfile("u.yaml", []byte(text))
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if !slices.Equal(p.Unstated, want) {
			t.Errorf("%q: unstated %q; want %q", text, p.Unstated, want)
		}
	}
	if tm := mustProfile(t, "tile-merge"); !slices.Equal(tm.Unstated, []string{"startTiles"}) {
		t.Errorf("tile-merge: unstated %q", tm.Unstated)
	}
	// The Rosetta Code task says what wins, not that the game ends there,
	// and speaks of no score.
	if r := mustProfile(t, "rosetta"); !slices.Equal(r.Unstated, []string{"illegalMove", "winThen", "score"}) {
		t.Errorf("rosetta: unstated %q", r.Unstated)
	}
}

func TestParseProfileErrors(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"name: x\nrows: 9\n", "p.yaml:2:1: rows: 9 is outside 2 to 8"},
		{"name: x\ncolour: red\n", `p.yaml:2:1: unknown field "colour"`},
		{"name: x\nspawn: {3: 1}\n", "p.yaml:2:1: spawn: 3 is not a tile"},
		{"name: x\nspawn: {2: 0}\n", "p.yaml:2:1: spawn: tile 2 has weight 0"},
		{"name: x\nwin:\n  tile: 2048\n  then: later\n", `p.yaml:4:3: "later" is not one of continue, stop, ask`},
		{"name: x\nwin: {when: soon}\n", `p.yaml:2:7: "soon" is not one of reach, merge`},
		{"name: x\nillegalMove: maybe\n", `p.yaml:2:1: "maybe" is not one of ignore, reject`},
		{"name: x\nwin: {tile: 64}\nillegalMove: maybe\n", `p.yaml:3:1: "maybe" is not one of ignore, reject`},
		{"name: x\nbase: nosuch\n", `p.yaml:2:1: no built-in profile "nosuch"`},
		{"name: Bad Name\n", `p.yaml:1:1: name: "Bad Name" is not a profile name`},
		{"name: x\nrows: four\n", "p.yaml:2:7: `four` where a whole number goes"},
		{"name: x\nunstated: [rows]\n", `p.yaml:2:1: unstated: ["rows"]; only startTiles, illegalMove, moveAfterEnd, newGameSeed and winThen may be named, each once`},
		{"name: x\nunstated: [startTiles, startTiles]\n", `p.yaml:2:1: unstated: ["startTiles" "startTiles"]; only startTiles, illegalMove, moveAfterEnd, newGameSeed and winThen may be named, each once`},
		// winThen: a win that ends the run, and no undo or break.
		{"name: x\nbase: tile-merge\nunstated: [winThen]\n", "p.yaml:3:1: unstated: winThen needs a win that ends the run (a win tile, win.then stop) and no undo or break, which the suite cannot follow after the win; here win.tile 2048, win.then continue, undo false, break limit 0"},
		{"name: x\nbase: classic\nunstated: [winThen]\n", "here win.tile 2048, win.then ask, undo false, break limit 0"},
		{"name: x\nbase: pgs\nwin: {tile: 0, when: reach, then: continue}\nunstated: [winThen]\n", "here win.tile 0, win.then continue"},
		{"name: x\nbase: online-2048\nunstated: [winThen]\n", "here win.tile 2048, win.then stop, undo true, break limit 0"},
		{"name: x\nbase: pgs\nbreak: {limit: 3, below: 16, price: 1000, whenNoMoves: refuse}\nunstated: [winThen]\n", "here win.tile 2048, win.then stop, undo false, break limit 3"},
		{"name: x\ntargets: [128, 512]\n", "p.yaml:2:1: targets: do not include the win tile 2048"},
		{"", "p.yaml: empty document"},
		{"name: x\n---\nname: y\n", "p.yaml:2:1: a second document"},
	}
	for _, tt := range tests {
		_, err := ParseProfile("p.yaml", []byte(tt.yaml))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseProfile(%q) = %v, want an error containing %q", tt.yaml, err, tt.want)
		}
	}
}

func TestSetup(t *testing.T) {
	online := mustProfile(t, "online-2048")
	p, err := online.WithSetup(Setup{512, true})
	if err != nil || p.Win.Tile != 512 || p.Win.Then != Continue || online.Win.Tile != 2048 {
		t.Errorf("Setup(512, open-ended) = %+v, %v", p, err)
	}
	if _, err := online.WithSetup(Setup{1024, false}); err == nil || err.Error() != "profile online-2048 offers the targets 128, 512, 2048, 4096, not 1024" {
		t.Errorf("online-2048 took target 1024: %v", err)
	}
	if _, err := mustProfile(t, "rosetta").WithSetup(Setup{2048, true}); err == nil {
		t.Error("rosetta accepted open-ended play")
	}
	if _, err := mustProfile(t, "classic").WithSetup(Setup{4096, false}); err == nil {
		t.Error("classic accepted target 4096")
	}
}

func FuzzParseProfile(f *testing.F) {
	for _, name := range BuiltinNames() {
		data, _ := BuiltinProfileYAML(name)
		f.Add(string(data))
	}
	f.Add("name: x\nbase: classic\nwin: {tile: 0}\n")
	f.Add("name: x\nbase: hallabois-4x4\nbreak: {limit: 0}\n")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParseProfile("f.yaml", []byte(text))
		if err != nil {
			if _, ok := err.(strictyaml.ErrorList); !ok {
				t.Fatalf("ParseProfile: %v (%T) is not an ErrorList", err, err)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("ParseProfile accepted an invalid profile: %v", err)
		}
	})
}

// TestProfileMarshalYAML writes every built-in profile, and variants of
// them, in their YAML form and reads it back: the same profile.
func TestProfileMarshalYAML(t *testing.T) {
	var profiles []*Profile
	for _, name := range BuiltinNames() {
		profiles = append(profiles, mustProfile(t, name))
	}
	online := mustProfile(t, "online-2048")
	v := online.Clone()
	v.Name, v.Rows, v.Cols, v.Spawn = "variant", 3, 5, []SpawnWeight{{2, 3}, {8, 1}, {16, 7}}
	v.Description = "two lines\nof description: with a colon"
	w := v.Clone()
	w.Name, w.Break = "variant-break", BreakRule{Limit: 2, Below: 64, Price: 250, WhenNoMoves: BreakAllow}
	profiles = append(profiles, v, w)
	for _, p := range profiles {
		data, err := yaml.Marshal(p)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		back, err := ParseProfile(p.Name+".yaml", data)
		if err != nil {
			t.Fatalf("%s: the written form does not read back: %v\n%s", p.Name, err, data)
		}
		if diff := cmp.Diff(p, back); diff != "" {
			t.Errorf("%s: read back differs (-written +read):\n%s\n%s", p.Name, diff, data)
		}
	}
}

func TestSetupCanonical(t *testing.T) {
	online, merge := mustProfile(t, "online-2048"), mustProfile(t, "tile-merge")
	for _, tc := range []struct {
		p    *Profile
		s    Setup
		want Setup
	}{
		{online, Setup{}, Setup{}},
		{online, Setup{Target: 2048}, Setup{}},
		{online, Setup{Target: 512}, Setup{Target: 512}},
		{online, Setup{Target: 2048, OpenEnded: true}, Setup{OpenEnded: true}},
		{merge, Setup{OpenEnded: true}, Setup{}},
		{merge, Setup{Target: 2048, OpenEnded: true}, Setup{}},
	} {
		if got := tc.s.Canonical(tc.p); got != tc.want {
			t.Errorf("%s: %+v.Canonical() = %+v, want %+v", tc.p.Name, tc.s, got, tc.want)
		}
		// Equal once canonical means the same rules.
		a, errA := tc.p.WithSetup(tc.s)
		b, errB := tc.p.WithSetup(tc.want)
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v, %v", tc.p.Name, errA, errB)
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%s: %+v and its canonical %+v give different rules:\n%s", tc.p.Name, tc.s, tc.want, diff)
		}
	}
}

// FuzzValidName holds validName to the regular expression it replaces and
// the 64 bytes a name has at most.
func FuzzValidName(f *testing.F) {
	for _, s := range []string{"tile-merge", "a", "a-", "-a", "a--b", "A", "a_b", "", "hallabois-v1-3x3", "x-1-y", strings.Repeat("a", 64), strings.Repeat("a", 65)} {
		f.Add(s)
	}
	name := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validName(s), name.MatchString(s) && len(s) <= 64; got != want {
			t.Errorf("validName(%q) = %v, want %v", s, got, want)
		}
	})
}

// TestTextYAMLErrors: a direction or a result that is not one, or not a
// scalar, is an error at its own line, naming what it should be.
func TestTextYAMLErrors(t *testing.T) {
	var v struct {
		D Direction `yaml:"d"`
		R Result    `yaml:"r"`
	}
	for _, tt := range []struct{ doc, want string }{
		{"d: up\nr: sideways", `f.yaml:2:4: "sideways" is not one of playing, target-reached`},
		{"d: [up]\nr: playing", "f.yaml:1:4: a direction is up, down, left or right"},
		{"r: {a: 1}", "f.yaml:1:4: a result is one of playing, target-reached, no-moves, move-limit, run-finished"},
	} {
		if err := strictyaml.Decode("f.yaml", []byte(tt.doc), &v); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %s...", tt.doc, err, tt.want)
		}
	}
	if err := strictyaml.Decode("f.yaml", []byte("d: left\nr: no-moves"), &v); err != nil || v.D != Left || v.R != NoMoves {
		t.Errorf("d: left, r: no-moves: %+v, %v", v, err)
	}
}
