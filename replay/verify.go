package replay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/boardfmt"
)

// Reason names why a replay is not valid. Malformed and Refused are about
// the input (it cannot be judged); the others are verdicts on the game.
type Reason string

// The reasons, in docs/replay-format.md's words.
const (
	Malformed       Reason = "malformed"        // the file is not a replay: syntax, a missing field, a bad move log
	Refused         Reason = "refused"          // unknown profile, rules version or generator: the verifier will not guess
	SeedCommitment  Reason = "seed-commitment"  // the seed does not match the published commitment
	ImpossibleClaim Reason = "impossible-claim" // the claim contradicts itself (found before replaying)
	BadStart        Reason = "bad-start"        // a spawn-recorded start board that no game starts with
	IllegalMove     Reason = "illegal-move"     // a move that changes nothing
	AfterEnd        Reason = "after-end"        // an action after the run ended
	BadSpawn        Reason = "bad-spawn"        // a recorded spawn on a full cell, of a value the profile never spawns, or missing
	BadAction       Reason = "bad-action"       // undo, End run or keep playing where the rules do not allow it
	Overflow        Reason = "overflow"         // a tile or score beyond the safe-integer limits
	ClaimMoves      Reason = "claim-moves"      // the claimed counted moves differ (a truncated or padded log)
	ClaimScore      Reason = "claim-score"
	ClaimMaxTile    Reason = "claim-max-tile"
	ClaimBoard      Reason = "claim-board"
	ClaimWon        Reason = "claim-won"
	ClaimOver       Reason = "claim-over"
	ClaimResult     Reason = "claim-result"
)

// Unreadable reports whether the reason is about the input rather than
// the game: malformed or refused, a replay that could not be judged.
func (r Reason) Unreadable() bool { return r == Malformed || r == Refused }

// Replayable reports whether a replay with this verdict reason can be
// played from its start (so has frames, see [Verifier.Frames]): all but
// the unreadable ones and a bad start board.
func (r Reason) Replayable() bool { return !r.Unreadable() && r != BadStart }

// Verdict is the outcome of verifying one replay.
type Verdict struct {
	Name   string `json:"name,omitempty"` // the file, or stdin:LINE
	Valid  bool   `json:"valid"`
	Reason Reason `json:"reason,omitempty"`
	Error  string `json:"error,omitempty"` // for malformed and refused replays

	Profile      string   `json:"profile,omitempty"`
	RulesVersion int      `json:"rulesVersion,omitempty"`
	RNG          string   `json:"rng,omitempty"`      // tp1 for a seeded replay
	Seed         *string  `json:"seed,omitempty"`     // the normalized seed text
	Unpinned     []string `json:"unpinned,omitempty"` // "rules", "rng": not pinned by the replay, so this verifier's were used

	// The game as replayed: to the end when valid, to the divergence
	// otherwise.
	Score   uint64 `json:"score"`
	MaxTile uint64 `json:"maxTile"`
	Moves   int    `json:"moves"`
	Won     bool   `json:"won"`
	Over    bool   `json:"over"`
	Result  string `json:"result,omitempty"`

	Divergence   *Divergence   `json:"divergence,omitempty"`
	Mismatches   []Mismatch    `json:"mismatches,omitempty"`
	Proved       string        `json:"proved,omitempty"`
	SHA256       string        `json:"sha256,omitempty"`   // of the canonical replay, for a valid one
	Warnings     []string      `json:"warnings,omitempty"` // the spawn plausibility tests below their threshold (Unpinned says what the replay leaves open)
	Plausibility *Plausibility `json:"plausibility,omitempty"`
}

// Divergence is the first point where a replay leaves the rules.
type Divergence struct {
	Action   int    `json:"action"` // 1-based position in the move log; the log's length for a claim
	Move     int    `json:"move"`   // counted moves before it
	Expected string `json:"expected"`
	Found    string `json:"found"`
	Board    string `json:"board,omitempty"` // the board there, as a text grid
	Diff     string `json:"diff,omitempty"`  // claimed board against the real one (go-cmp; - claimed, + real)
}

// Mismatch is one claimed figure that is not what the moves produce.
type Mismatch struct {
	Field   string `json:"field"`
	Claimed string `json:"claimed"`
	Found   string `json:"found"`
}

// Verifier verifies replays against the built-in profiles and any added
// ones. It is safe for concurrent use.
type Verifier struct {
	mu       sync.Mutex
	profiles map[string]*engine.Profile
	rules    map[string]*engine.Rules // by profile name and setup
}

// NewVerifier returns a verifier that knows the built-in profiles.
func NewVerifier() *Verifier {
	v := &Verifier{profiles: map[string]*engine.Profile{}, rules: map[string]*engine.Rules{}}
	for _, name := range engine.BuiltinNames() {
		v.profiles[name], _ = engine.BuiltinProfile(name)
	}
	return v
}

// AddProfile makes a profile known by its name, replacing any of the same
// name.
func (v *Verifier) AddProfile(p *engine.Profile) error {
	if err := p.Validate(); err != nil {
		return err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.profiles[p.Name] = p.Clone()
	for k := range v.rules {
		if strings.HasPrefix(k, p.Name+"\x00") {
			delete(v.rules, k)
		}
	}
	return nil
}

// compile returns the rules a replay is verified under: its profile with
// its setup, compiled once and shared.
func (v *Verifier) compile(r *Replay) (*engine.Rules, error) {
	key := r.Profile + "\x00"
	if r.Setup != nil {
		key += fmt.Sprintf("%d/%v", r.Setup.Target, r.Setup.OpenEnded)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if rules, ok := v.rules[key]; ok {
		return rules, nil
	}
	p, ok := v.profiles[r.Profile]
	if !ok {
		return nil, fmt.Errorf("unknown profile %q (this verifier knows %s)", r.Profile, strings.Join(v.names(), ", "))
	}
	if r.Setup != nil {
		target := r.Setup.Target
		if target == 0 {
			target = p.Win.Tile
		}
		var err error
		if p, err = p.Setup(target, r.Setup.OpenEnded); err != nil {
			return nil, err
		}
	}
	// A replay records the moves that count: a move that changes nothing,
	// or any move after the end, is invalid in every profile, even in one
	// whose game would pass over it. Verifying under the profile's rules
	// with illegal moves rejected makes the engine stop at them.
	p = p.Clone()
	p.Illegal = engine.Reject
	rules, err := engine.Compile(p)
	if err != nil {
		return nil, err
	}
	v.rules[key] = rules
	return rules, nil
}

func (v *Verifier) names() []string {
	var names []string
	for n := range v.profiles {
		names = append(names, n)
	}
	sortStrings(names)
	return names
}

// VerifyFile decodes and verifies one replay file; a file that cannot be
// decoded is a Malformed verdict carrying the error.
func (v *Verifier) VerifyFile(name string, data []byte) Verdict {
	r, err := Decode(name, data)
	if err != nil {
		return Verdict{Name: name, Reason: Malformed, Error: err.Error()}
	}
	vd := v.Verify(r)
	vd.Name = name
	return vd
}

// Verify replays r through the engine and returns its verdict.
func (v *Verifier) Verify(r *Replay) Verdict {
	vd := Verdict{Profile: r.Profile}
	refuse := func(format string, args ...any) Verdict {
		vd.Reason, vd.Error = Refused, fmt.Sprintf(format, args...)
		return vd
	}
	rules, err := v.compile(r)
	if err != nil {
		return refuse("%v", err)
	}
	p := rules.Profile()
	vd.RulesVersion = p.Version
	switch {
	case r.Rules == 0:
		vd.Unpinned = append(vd.Unpinned, "rules")
	case r.Rules != p.Version:
		return refuse("the replay pins rules version %d of profile %s; this verifier knows version %d only", r.Rules, p.Name, p.Version)
	}
	if r.Seed != nil {
		switch r.RNG {
		case "":
			vd.Unpinned = append(vd.Unpinned, "rng")
		case engine.RNGID:
		default:
			return refuse("the replay pins the spawn generator %q; this verifier knows %q only", r.RNG, engine.RNGID)
		}
		vd.RNG = engine.RNGID
		seed, err := engine.NormalizeSeed(*r.Seed)
		if err != nil {
			vd.Reason, vd.Error = Malformed, err.Error()
			return vd
		}
		vd.Seed = &seed
		if r.SeedCommitment != "" {
			if bad := checkCommitment(r.SeedCommitment, seed); bad != "" {
				return vd.invalid(SeedCommitment, &Divergence{Expected: r.SeedCommitment, Found: bad})
			}
		}
	}
	if err := checkClaim(p, r.Claim); err != nil {
		return vd.invalid(ImpossibleClaim, &Divergence{Action: 0, Expected: "a claim some game can reach", Found: err.Error()})
	}

	if r.Start != nil {
		if bad := checkStart(p, *r.Start); bad != "" {
			return vd.invalid(BadStart, &Divergence{Expected: fmt.Sprintf("%d start tiles of %s", p.StartTiles, p.SpawnValues()), Found: bad, Board: r.Start.String()})
		}
	}
	g, err := startGame(rules, r)
	if err != nil {
		return refuse("%v", err)
	}
	var plaus *plausibilityCounter
	if r.Start != nil {
		plaus = newPlausibilityCounter(p, *r.Start)
	}
	if div, reason := replayLog(g, r, plaus); div != nil {
		vd.describe(g)
		return vd.invalid(reason, div)
	}
	vd.describe(g)
	if plaus != nil {
		vd.Plausibility = plaus.result()
		vd.Warnings = append(vd.Warnings, vd.Plausibility.warnings()...)
	}
	if mm := compareClaim(r.Claim, g); len(mm) > 0 {
		vd.Mismatches = mm
		div := &Divergence{Action: len(r.Actions), Move: g.Moves(), Expected: fmt.Sprintf("%s %s", mm[0].Field, mm[0].Claimed),
			Found: fmt.Sprintf("%s %s", mm[0].Field, mm[0].Found), Board: g.Board().String()}
		if r.Claim.Board != nil && *r.Claim.Board != g.Board() {
			if mm[0].Field == "board" {
				div.Expected, div.Found = "the claimed board", "another board"
			}
			div.Diff = boardfmt.Diff(*r.Claim.Board, g.Board())
		}
		return vd.invalid(claimReasons[mm[0].Field], div)
	}
	vd.Valid = true
	from := "the recorded start board and spawns"
	if vd.Seed != nil {
		from = fmt.Sprintf("seed %q", *vd.Seed)
	}
	vd.Proved = fmt.Sprintf("score %d, tile %d in %d moves is reachable from %s under profile %s, rules version %d", g.Score(), g.MaxTile(), g.Moves(), from, p.Name, p.Version)
	if r.Seed != nil {
		vd.Proved += ", spawns by " + engine.RNGID
	}
	vd.SHA256 = canonicalHash(r, p, vd.Seed, g)
	return vd
}

// startGame returns r's game at its start: from its seed, or from its
// recorded start board.
func startGame(rules *engine.Rules, r *Replay) (*engine.Game, error) {
	if r.Seed != nil {
		return rules.NewGame(*r.Seed)
	}
	return rules.Load(engine.State{Board: *r.Start})
}

func (vd Verdict) invalid(reason Reason, div *Divergence) Verdict {
	vd.Valid, vd.Reason, vd.Divergence = false, reason, div
	return vd
}

// describe fills in the game's figures.
func (vd *Verdict) describe(g *engine.Game) {
	res, _ := g.Result().MarshalText()
	vd.Score, vd.MaxTile, vd.Moves, vd.Won, vd.Over, vd.Result = g.Score(), g.MaxTile(), g.Moves(), g.Won(), g.Over(), string(res)
}

// replayLog plays the log, stopping at the first action the rules refuse.
func replayLog(g *engine.Game, r *Replay, plaus *plausibilityCounter) (*Divergence, Reason) {
	if plaus == nil {
		if n, err := g.Play(r.Actions, nil); err != nil {
			return divergence(g, r, n, err)
		}
		return nil, ""
	}
	// Spawn-recorded: one action at a time, to count each spawn's chances
	// for the plausibility check.
	for i, a := range r.Actions {
		if d, ok := a.Direction(); ok && g.Legal(d) {
			plaus.before(g.Board(), d, r.Spawns[i])
		}
		if _, err := g.Play(r.Actions[i:i+1], r.Spawns[i:i+1]); err != nil {
			return divergence(g, r, i, err)
		}
	}
	return nil, ""
}

// divergence describes the refusal of action i (0-based) in game g.
func divergence(g *engine.Game, r *Replay, i int, err error) (*Divergence, Reason) {
	a := r.Actions[i]
	div := &Divergence{Action: i + 1, Move: g.Moves(), Board: g.Board().String()}
	what := fmt.Sprintf("action %d (%s)", i+1, a)
	var reason Reason
	switch {
	case errors.Is(err, engine.ErrFinished):
		reason = AfterEnd
		div.Expected = what + " while the run is playing"
		div.Found = fmt.Sprintf("the run ended after %d moves: %s", g.Moves(), g.Result())
		if g.AwaitingKeep() {
			div.Found += " (a replay that plays on records K, keep playing)"
		}
	case errors.Is(err, engine.ErrIllegalMove):
		reason = IllegalMove
		div.Expected = what + ", a move that changes the board"
		var me *engine.MoveError
		errors.As(err, &me)
		div.Found = me.Error()
	case errors.Is(err, engine.ErrBadSpawn):
		reason = BadSpawn
		s := r.Spawns[i]
		div.Expected = fmt.Sprintf("%s followed by %d in row %d, column %d", what, s.Value, s.Row, s.Col)
		div.Found = strings.TrimPrefix(err.Error(), engine.ErrBadSpawn.Error()+": ")
		if d, ok := a.Direction(); ok {
			if sl, serr := g.Board().Slide(d); serr == nil {
				div.Board = sl.Board.String() // the board after the slide, where the tile would go
			}
		}
	case errors.Is(err, engine.ErrTileOverflow), errors.Is(err, engine.ErrScoreOverflow):
		reason = Overflow
		div.Expected, div.Found = what, err.Error()
	default: // undo, End run, keep playing refused
		reason = BadAction
		div.Expected, div.Found = what, err.Error()
	}
	return div, reason
}

var claimReasons = map[string]Reason{
	"moves": ClaimMoves, "score": ClaimScore, "maxTile": ClaimMaxTile, "board": ClaimBoard,
	"won": ClaimWon, "over": ClaimOver, "result": ClaimResult,
}

// compareClaim lists the claimed figures the game does not have, the
// move count first (a truncated or padded log shows there).
func compareClaim(c Claim, g *engine.Game) []Mismatch {
	var mm []Mismatch
	add := func(field string, claimed, found any) {
		if fmt.Sprint(claimed) != fmt.Sprint(found) {
			mm = append(mm, Mismatch{field, fmt.Sprint(claimed), fmt.Sprint(found)})
		}
	}
	add("moves", c.Moves, g.Moves())
	add("score", c.Score, g.Score())
	add("maxTile", c.MaxTile, g.MaxTile())
	if c.Board != nil && *c.Board != g.Board() {
		mm = append(mm, Mismatch{"board", c.Board.String(), g.Board().String()})
	}
	if c.Won != nil {
		add("won", *c.Won, g.Won())
	}
	if c.Over != nil {
		add("over", *c.Over, g.Over())
	}
	if c.Result != nil {
		claimed, _ := c.Result.MarshalText()
		found, _ := g.Result().MarshalText()
		add("result", string(claimed), string(found))
	}
	return mm
}

// Commitment returns the seed commitment of a seed text, published before
// play (docs/replay-format.md): "sha256:" and the lower-case hex SHA-256
// of the trimmed seed.
func Commitment(seed string) (string, error) {
	t, err := engine.NormalizeSeed(seed)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(t))
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// checkCommitment returns "" when commitment is the Commitment of the
// (normalized) seed, and otherwise what was found instead.
func checkCommitment(commitment, seed string) string {
	want, err := Commitment(seed)
	if err != nil {
		return err.Error()
	}
	if strings.EqualFold(commitment, want) {
		return ""
	}
	return fmt.Sprintf("the seed hashes to %s", want)
}

// canonicalHash returns the hex SHA-256 of the canonical form of a valid
// replay (docs/replay-format.md): the game and what it proved, without
// metadata or white space, so two files of the same game hash the same.
func canonicalHash(r *Replay, p *engine.Profile, seed *string, g *engine.Game) string {
	res, _ := g.Result().MarshalText()
	type claim struct {
		Score   uint64     `json:"score"`
		MaxTile uint64     `json:"maxTile"`
		Moves   int        `json:"moves"`
		Board   [][]uint64 `json:"board"`
		Won     bool       `json:"won"`
		Over    bool       `json:"over"`
		Result  string     `json:"result"`
	}
	c := struct {
		Profile        string     `json:"profile"`
		Rules          int        `json:"rules"`
		RNG            string     `json:"rng,omitempty"`
		Setup          *Setup     `json:"setup,omitempty"`
		Seed           *string    `json:"seed,omitempty"`
		SeedCommitment string     `json:"seedCommitment,omitempty"`
		Start          [][]uint64 `json:"start,omitempty"`
		Moves          string     `json:"moves"`
		Claim          claim      `json:"claim"`
	}{
		Profile: p.Name, Rules: p.Version, Setup: r.Setup, Seed: seed, SeedCommitment: strings.ToLower(r.SeedCommitment),
		Claim: claim{g.Score(), g.MaxTile(), g.Moves(), g.Board().Values(), g.Won(), g.Over(), string(res)},
	}
	if seed != nil {
		c.RNG = engine.RNGID
	} else {
		c.Start = r.Start.Values()
	}
	// The move log, thousands of letters, is hashed as it is rather than
	// through the JSON encoder, which would copy and scan it for nothing:
	// a log (letters, and in a spawn-recorded game digits and ':') holds
	// no character JSON escapes. The encoder writes the form with an empty
	// log, and the log is hashed in its place: after the first
	// "moves":"" (keys come in order, and quotes inside strings are
	// escaped).
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(c)
	form := bytes.TrimRight(buf.Bytes(), "\n")
	at := bytes.Index(form, []byte(`"moves":""`)) + len(`"moves":"`)
	h := sha256.New()
	h.Write(form[:at])
	io.WriteString(h, strings.ReplaceAll(r.MoveLog(), " ", "")) // a spawn log's spaces go
	h.Write(form[at:])
	return hex.EncodeToString(h.Sum(nil))
}
