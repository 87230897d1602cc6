package replay

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/tileproof/tileproof/engine"
)

// verdictJSON is the verdict line as the JSON library writes it from
// struct tags: what Verdict.AppendJSON, which writes it by hand, is held
// to. (The library's reflection stays out of the package itself: linked
// into the web kit, it would take the module past its size budget.)
type verdictJSON struct {
	Name         string            `json:"name,omitzero"`
	Valid        bool              `json:"valid"`
	Reason       Reason            `json:"reason,omitzero"`
	Error        string            `json:"error,omitzero"`
	Profile      string            `json:"profile,omitzero"`
	RulesVersion int               `json:"rulesVersion,omitzero"`
	Setup        *setupJSON        `json:"setup,omitzero"`
	RNG          string            `json:"rng,omitzero"`
	Seed         *string           `json:"seed,omitzero"`
	Unpinned     []string          `json:"unpinned,omitzero"`
	*figuresJSON `json:",inline"`  // a replayed game's
	Divergence   *divergenceJSON   `json:"divergence,omitzero"`
	Mismatches   []mismatchJSON    `json:"mismatches,omitzero"`
	Proved       string            `json:"proved,omitzero"`
	SHA256       string            `json:"sha256,omitzero"`
	GameSHA256   string            `json:"gameSha256,omitzero"`
	Warnings     []string          `json:"warnings,omitzero"`
	Plausibility *plausibilityJSON `json:"plausibility,omitzero"`
	ThinkTimes   *timesJSON        `json:"thinkTimes,omitzero"`
	Analysis     jsontext.Value    `json:"analysis,omitzero"`
}

type setupJSON struct {
	Target    uint64 `json:"target,omitzero"`
	OpenEnded bool   `json:"openEnded,omitzero"`
}

type figuresJSON struct {
	Score   uint64 `json:"score"`
	MaxTile uint64 `json:"maxTile"`
	Moves   int    `json:"moves"`
	Won     bool   `json:"won"`
	Over    bool   `json:"over"`
	Result  string `json:"result"`
}

type divergenceJSON struct {
	Action     int    `json:"action"`
	Move       int    `json:"move"`
	ReplaySays string `json:"replaySays"`
	RulesGive  string `json:"rulesGive"`
	Expected   string `json:"expected"`       // replaySays's earlier name
	Found      string `json:"found"`          // rulesGive's
	Board      string `json:"board,omitzero"` // a board's text is never empty
	Diff       string `json:"diff,omitzero"`
}

type mismatchJSON struct {
	Field      string `json:"field"`
	ReplaySays string `json:"replaySays"`
	RulesGive  string `json:"rulesGive"`
	Claimed    string `json:"claimed"` // replaySays's earlier name
	Found      string `json:"found"`   // rulesGive's
}

// timesJSON is a times check: its reason only when not sealed.
type timesJSON struct {
	Count  int    `json:"count"`
	Sealed bool   `json:"sealed"`
	Reason string `json:"reason,omitzero"`
}

// plausibilityJSON is the verdict's plausibility: encoding/json's text
// of Plausibility (TestPlausibilityJSON), a p-value that is not a number
// null.
type plausibilityJSON struct {
	Spawns int            `json:"spawns"`
	Values map[uint64]int `json:"values,format:emitnull"`
	ValueP *float64       `json:"valueP"`
	RankP  *float64       `json:"rankP"`
	CellP  *float64       `json:"cellP"`
}

// appendLibraryJSON appends the library's text of vd's line to b. A
// name and an error from outside may not be UTF-8: each run of bad bytes
// is one U+FFFD (the library would write one for each byte).
func appendLibraryJSON(t testing.TB, b []byte, vd Verdict) []byte {
	t.Helper()
	valid := func(s string) string {
		if utf8.ValidString(s) {
			return s
		}
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	// omitzero (a nil list left out) costs less than omitempty.
	list := func(s []string) []string {
		if len(s) == 0 {
			return nil
		}
		return s
	}
	line := verdictJSON{
		Name: valid(vd.Name), Valid: vd.Valid, Reason: vd.Reason, Error: valid(vd.Error),
		Profile: vd.Profile, RulesVersion: vd.RulesVersion, Setup: (*setupJSON)(vd.Setup),
		RNG: vd.RNG, Seed: vd.Seed, Unpinned: list(vd.Unpinned),
		Proved: vd.Proved(), SHA256: vd.SHA256, GameSHA256: vd.GameSHA256, Warnings: list(vd.Warnings),
	}
	if len(vd.Analysis) > 0 {
		line.Analysis = jsontext.Value(vd.Analysis)
	}
	for _, m := range vd.Mismatches {
		line.Mismatches = append(line.Mismatches, mismatchJSON{m.Field, m.Claimed, m.Found, m.Claimed, m.Found})
	}
	if vd.Replayed {
		line.figuresJSON = &figuresJSON{vd.Score, vd.MaxTile, vd.Moves, vd.Won, vd.Over, vd.Result.Name()}
	}
	if d := vd.Divergence; d != nil {
		says, gives := d.Says(), d.Gives()
		line.Divergence = &divergenceJSON{d.Action, d.Move, says, gives, says, gives, "", d.Diff()}
		if d.Board != nil {
			line.Divergence.Board = d.Board.String()
		}
	}
	if tc := vd.ThinkTimes; tc != nil {
		line.ThinkTimes = &timesJSON{Count: tc.Count, Sealed: tc.Sealed}
		if !tc.Sealed {
			line.ThinkTimes.Reason = tc.Reason
		}
	}
	if pl := vd.Plausibility; pl != nil {
		finite := func(p float64) *float64 {
			if math.IsNaN(p) || math.IsInf(p, 0) {
				return nil
			}
			return &p
		}
		line.Plausibility = &plausibilityJSON{pl.Spawns, pl.Values, finite(pl.ValueP), finite(pl.RankP), finite(pl.CellP)}
	}
	buf := bytes.NewBuffer(b)
	if err := json.MarshalWrite(buf, &line, libraryOptions()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// libraryOptions are the library's options for the line: the values'
// keys in order, bad UTF-8 as U+FFFD, the analysis's strings as they are.
var libraryOptions = sync.OnceValue(func() json.Options {
	return json.JoinOptions(json.Deterministic(true), jsontext.AllowInvalidUTF8(true), jsontext.PreserveRawStrings(true))
})

// checkVerdictJSON holds vd's line to the library's text of it.
func checkVerdictJSON(t testing.TB, vd Verdict) {
	t.Helper()
	if got, want := vd.AppendJSON([]byte("pre")), appendLibraryJSON(t, []byte("pre"), vd); !bytes.Equal(got, want) {
		t.Fatalf("%q:\n     got %s\nlibrary: %s", vd.Name, got, want)
	}
}

// TestVerdictJSON holds the verdict line to the library's text of it for
// every replay of the corpus and a dozen broken copies of each, each
// verdict as it is, under odd names (escapes, bad UTF-8), made strict, and
// with a times check and an analysis added.
func TestVerdictJSON(t *testing.T) {
	v := NewVerifier()
	n := 0
	err := filepath.WalkDir(corpusDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for k := range 13 {
			in := bytes.Clone(data)
			if j := (k*7919 + 13) % len(in); k > 0 {
				switch k % 4 {
				case 0:
					in[j] = "0123456789"[k%10]
				case 1:
					in[j] = "LRUD"[k%4]
				case 2:
					in = in[:j]
				case 3:
					in[j] = ' '
				}
			}
			vd := v.VerifyFile(path, in)
			for _, name := range []string{path, "", "<b> & \u2028\u2029 é \x00\x1f\x7f \"q\" \\", "bad \xff\xfe UTF-8 \xc3", "\u00ad\u200b\ufeff"} {
				vd.Name = name
				for _, vd := range []Verdict{vd, vd.Strict()} {
					checkVerdictJSON(t, vd)
					for _, tc := range []*TimesCheck{{Count: 3, Reason: "no seal <x>"}, {Count: 3, Sealed: true, Reason: "left out"}, {}} {
						vd.ThinkTimes = tc
						checkVerdictJSON(t, vd)
					}
					vd.Analysis = []byte(`{"band":"weak","n":[1,2.5e-7],"s":"\u003c"}`)
					checkVerdictJSON(t, vd)
					n += 5
				}
			}
		}
		return nil
	})
	if err != nil || n < 1000 {
		t.Fatalf("%d verdicts: %v", n, err)
	}
}

// FuzzVerdictJSON holds the verdict line to the library's text of it for
// verdicts made of fuzzed strings and numbers, every member present or
// not.
func FuzzVerdictJSON(f *testing.F) {
	f.Add([]byte("seed"), "stdin:1", "a <b> \"c\"", uint64(5), 3, true)
	f.Add([]byte("\xff\xfe"), "\u2028", "é", uint64(1<<63), 0, false)
	f.Fuzz(func(t *testing.T, raw []byte, s1, s2 string, u uint64, i int, flag bool) {
		r := rand.New(rand.NewPCG(u, uint64(i)))
		i &= math.MaxInt // counts are never negative
		outside := func() string { return [...]string{"", s1, s2, string(raw)}[r.IntN(4)] }
		// Only a name and an error come from outside unchecked: the rest
		// is the verifier's words or a decoded replay's, UTF-8.
		str := func() string { return strings.ToValidUTF8(outside(), "\uFFFD") }
		num := func() uint64 { return [...]uint64{0, u, r.Uint64()}[r.IntN(3)] }
		strs := func() (s []string) {
			for range r.IntN(3) {
				s = append(s, str())
			}
			return s
		}
		vd := Verdict{Name: outside(), Valid: flag, Reason: Reason(str()), Error: outside(), Profile: str(),
			RulesVersion: i, RNG: str(), Unpinned: strs(), Replayed: r.IntN(2) == 0,
			Score: num(), MaxTile: num(), Moves: int(num() >> 1), Won: r.IntN(2) == 0, Over: r.IntN(2) == 0,
			Result: engine.Result(r.IntN(5)), SHA256: str(), GameSHA256: str(), Warnings: strs()}
		if r.IntN(2) == 0 {
			vd.Setup = &engine.Setup{Target: num(), OpenEnded: r.IntN(2) == 0}
		}
		if r.IntN(2) == 0 {
			s := str()
			vd.Seed = &s
		}
		if r.IntN(2) == 0 {
			reasons := []Reason{SeedCommitment, ClaimBoard, BadStart, AfterEnd, ClaimScore}
			d := &Divergence{Action: int(num() >> 2), Move: i, Problem: str(), Committed: str(), Computed: str(),
				reason: reasons[r.IntN(len(reasons))], startTiles: i, spawns: str(), AwaitingKeep: r.IntN(2) == 0}
			if r.IntN(2) == 0 {
				// A board has cells: its text is never empty.
				b, _ := engine.NewBoard(engine.MinSide+r.IntN(3), engine.MinSide+r.IntN(3))
				d.Board = &b
				if d.reason == ClaimBoard {
					c, _ := engine.NewBoard(b.Rows(), b.Cols())
					d.Claimed = &c
				}
			}
			if r.IntN(2) == 0 {
				d.Claim = &Mismatch{str(), str(), str()}
			}
			vd.Divergence = d
		}
		for range r.IntN(3) {
			vd.Mismatches = append(vd.Mismatches, Mismatch{str(), str(), str()})
		}
		if r.IntN(2) == 0 {
			p := func() float64 {
				return [...]float64{0, 1, math.NaN(), math.Inf(-1), math.Inf(1), 1e-7, 1e21, 5e-324, r.Float64(), math.Float64frombits(u)}[r.IntN(10)]
			}
			pl := &Plausibility{Spawns: int(num() >> 1), ValueP: p(), RankP: p(), CellP: p()}
			if r.IntN(3) > 0 {
				pl.Values = map[uint64]int{}
				for range r.IntN(5) {
					pl.Values[num()] = int(num() >> 1)
				}
			}
			vd.Plausibility = pl
		}
		if r.IntN(2) == 0 {
			vd.ThinkTimes = &TimesCheck{Count: i, Sealed: r.IntN(2) == 0, Reason: str()}
		}
		if r.IntN(2) == 0 {
			vd.Analysis = fmt.Appendf(nil, `{"a":%d,"s":"\u003c"}`, i)
		}
		checkVerdictJSON(t, vd)
	})
}

// TestNoReflectingJSONWriter checks that the package, as the web kit
// links it (GOOS=wasip1), does not link go-json-experiment/json's
// marshaling (its reflection took the kit's module past its size budget,
// docs/verify.md): the verdict and the replay writers are by hand, held
// to the library by the tests.
func TestNoReflectingJSONWriter(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the package's imports with")
	}
	cmd := exec.Command(goCmd, "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for dep := range strings.Lines(string(out)) {
		if strings.TrimSpace(dep) == "github.com/go-json-experiment/json" {
			t.Fatal("package replay links github.com/go-json-experiment/json: its reflection would grow the web kit past its budget")
		}
	}
}
