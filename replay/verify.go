package replay

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/nearname"
	"github.com/tileproof/tileproof/internal/strictyaml"
)

// Verifier verifies replays against the built-in profiles and any added
// ones. It is safe for concurrent use.
type Verifier struct {
	// HowToAdd, when set, ends the refusal of a replay whose profile the
	// verifier does not know with how its user makes a profile known:
	// `verify --profile FILE` for the command, `serve --profiles FILE`
	// for the server. Set it before the verifier is used.
	HowToAdd string

	mu       sync.Mutex
	profiles map[string]*engine.Profile // those added, and the built-in ones used so far
	rules    map[rulesKey]*compiled     // by profile name and canonical setup
}

type rulesKey struct {
	profile string
	setup   engine.Setup
}

// compiled is a profile with a setup, ready for play: the rules, and the
// profile they were compiled from (shared, never changed).
type compiled struct {
	rules *engine.Rules
	p     *engine.Profile
	setup engine.Setup // canonical
}

// NewVerifier returns a verifier that knows the built-in profiles. It
// reads each at its first use.
func NewVerifier() *Verifier {
	return &Verifier{profiles: map[string]*engine.Profile{}, rules: map[rulesKey]*compiled{}}
}

// profile returns the profile of that name, an added one before a
// built-in one; v.mu is held.
func (v *Verifier) profile(name string) (*engine.Profile, bool) {
	if p, ok := v.profiles[name]; ok {
		return p, true
	}
	p, err := engine.BuiltinProfile(name)
	if err != nil {
		return nil, false
	}
	v.profiles[name] = p
	return p, true
}

// Profile returns a copy of the profile the verifier verifies a replay
// of that name under: an added one before a built-in one; false for a
// name it does not know.
func (v *Verifier) Profile(name string) (*engine.Profile, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	p, ok := v.profile(name)
	if !ok {
		return nil, false
	}
	return p.Clone(), true
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
		if k.profile == p.Name {
			delete(v.rules, k)
		}
	}
	return nil
}

// compile returns the rules a replay is verified under: its profile with
// its setup, compiled once and shared.
func (v *Verifier) compile(r *Replay) (*compiled, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	p, ok := v.profile(r.Profile)
	if !ok {
		return nil, v.unknown(r.Profile)
	}
	var setup engine.Setup
	if r.Setup != nil {
		setup = *r.Setup
	}
	key := rulesKey{r.Profile, setup}
	if c, ok := v.rules[key]; ok {
		return c, nil
	}
	q, err := p.WithSetup(setup)
	if err != nil {
		return nil, err
	}
	// A replay records the moves that count: a move that changes nothing,
	// or any move after the end, is invalid in every profile, even in one
	// whose game would pass over it. Verifying under the profile's rules
	// with illegal moves rejected makes the engine stop at them.
	played := q.Clone()
	played.Illegal = engine.Reject
	rules, err := engine.Compile(played)
	if err != nil {
		return nil, err
	}
	c := &compiled{rules: rules, p: q, setup: setup.Canonical(p)}
	v.rules[key] = c
	return c, nil
}

// unknown is the refusal of a profile name the verifier does not know,
// with the known name it is nearest to, if one is that near; v.mu is held.
func (v *Verifier) unknown(name string) error {
	names := v.names()
	var b strings.Builder
	fmt.Fprintf(&b, "unknown profile %s", strictyaml.Echo(name))
	if near := nearProfile(name, names); near != "" {
		fmt.Fprintf(&b, ": did you mean %s?", near)
	}
	fmt.Fprintf(&b, " (this verifier knows %s", strings.Join(names, ", "))
	if v.HowToAdd != "" {
		fmt.Fprintf(&b, "; a profile of a file is known once the file is given: %s", v.HowToAdd)
	}
	b.WriteString(")")
	return errors.New(b.String())
}

// nearProfile returns the one name of names that name is a near miss of:
// the same once case and _ against - are set aside, or else one edit
// (a letter added, dropped or changed) away; "" for none, or for two.
func nearProfile(name string, names []string) string {
	fold := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	f := fold(name)
	var near []string
	for _, n := range names {
		fn := fold(n)
		if fn == f {
			return n
		}
		// Lengths two apart are two edits at least: a long name costs no
		// distance's quadratic time.
		if d := len(f) - len(fn); d >= -1 && d <= 1 && nearname.Distance(f, fn) == 1 {
			near = append(near, n)
		}
	}
	if len(near) == 1 {
		return near[0]
	}
	return ""
}

func (v *Verifier) names() []string {
	names := slices.AppendSeq(engine.BuiltinNames(), maps.Keys(v.profiles))
	slices.Sort(names)
	return slices.Compact(names)
}

// VerifyFile decodes and verifies one replay file; a file that cannot be
// decoded is a Malformed verdict carrying the error.
func (v *Verifier) VerifyFile(name string, data []byte) Verdict {
	s := getScratch()
	defer s.put()
	if err := s.decode(name, data); err != nil {
		return Verdict{Name: name, Reason: Malformed, Error: err.Error()}
	}
	vd := v.verify(&s.r, nil, s)
	vd.Name = name
	return vd
}

// Verify replays r through the engine and returns its verdict.
func (v *Verifier) Verify(r *Replay) Verdict {
	s := getScratch()
	defer s.put()
	return v.verify(r, nil, s)
}

// Trace verifies r and returns the game frame by frame beside the
// verdict: every action the rules accept, so to the end of a replay whose
// moves are all legal (even one whose claim is false) and to the last
// frame before the divergence of one that breaks the rules. A replay that
// cannot be replayed at all (malformed, refused, a bad start board) has no
// frames.
func (v *Verifier) Trace(r *Replay) (Verdict, []Frame) {
	var frames []Frame
	vd := v.Walk(r, func(f Frame) {
		if frames == nil {
			frames = make([]Frame, 0, len(r.Actions)+1)
		}
		frames = append(frames, f)
	})
	return vd, frames
}

// verify is Verify, and with trace each frame handed to emit in turn,
// working in s. The verdict holds nothing of r or s.
func (v *Verifier) verify(r *Replay, emit func(Frame), s *scratch) Verdict {
	trace := emit != nil
	vd := Verdict{Profile: r.Profile}
	refuse := func(format string, args ...any) Verdict {
		vd.Reason, vd.Error = Refused, fmt.Sprintf(format, args...)
		return vd
	}
	c, err := v.compile(r)
	if err != nil {
		vd.Profile = "" // not known: the verdict names a profile once it is (and never echoes a long one)
		return refuse("%v", err)
	}
	p := c.p
	vd.RulesVersion = p.Version
	if c.setup != (engine.Setup{}) {
		vd.Setup = new(c.setup)
	}
	switch {
	case r.Rules == 0:
		vd.Unpinned = append(vd.Unpinned, "rules")
	case r.Rules != p.Version:
		return refuse("the replay pins rules version %d of profile %s; this verifier knows version %d only (a newer tileproof may know version %[1]d; if the replay was written for version %[3]d, pin rules: %[3]d)", r.Rules, p.Name, p.Version)
	}
	var gen engine.Generator
	if r.Seed != nil {
		// The profile's own generator, and no other, so that one issued
		// seed is one game (docs/security.md).
		own := p.Generator()
		if r.RNG == "" {
			vd.Unpinned = append(vd.Unpinned, "rng")
		}
		gen, err = engine.ParseGenerator(cmp.Or(r.RNG, own))
		switch {
		case err != nil && r.RNG == "":
			return refuse("profile %s's seeded games spawn by %s, which this verifier does not know", p.Name, own)
		case err != nil:
			return refuse("the replay pins the spawn generator %s; this verifier knows %s", strictyaml.Echo(r.RNG), strings.Join(engine.GeneratorNames(), " and "))
		case r.RNG != "" && r.RNG != own:
			return refuse("the replay pins the spawn generator %s, which is not profile %s's: its seeded games spawn by %s", r.RNG, p.Name, own)
		}
		vd.RNG = gen.String()
		seed, err := gen.Seed(*r.Seed)
		if err != nil {
			vd.Reason, vd.Error = Malformed, err.Error()
			return vd
		}
		vd.Seed = &seed
	}
	// A wrong seed commitment or an impossible claim is judged before
	// replaying; the game is still played for its frames when they are
	// asked for.
	var early *Divergence
	var earlyReason Reason
	if r.SeedCommitment != "" && vd.Seed != nil {
		if want, _ := Commitment(*vd.Seed); r.SeedCommitment != want {
			early, earlyReason = &Divergence{Committed: r.SeedCommitment, Computed: want}, SeedCommitment
		}
	}
	if err := checkClaim(p, r.Claim); early == nil && err != nil {
		early, earlyReason = &Divergence{claim: new(r.Claim), Problem: err.Error()}, ImpossibleClaim
	}
	// An impossible claim's moves are replayed all the same, for the game
	// they make (its gameSha256, when they keep the rules to the end); a
	// wrong commitment's only when the frames are asked for.
	if early != nil && !trace && earlyReason != ImpossibleClaim {
		return vd.invalid(earlyReason, early)
	}
	if r.Start != nil {
		if bad := checkStart(p, *r.Start); bad != "" {
			if early != nil {
				return vd.invalid(earlyReason, early) // no frames: the game cannot start
			}
			return vd.invalid(BadStart, &Divergence{Board: new(*r.Start), Problem: bad, startTiles: p.StartTiles, spawns: p.SpawnValues()})
		}
	}
	g, err := startGame(c.rules, r, gen)
	if err != nil {
		if early != nil {
			return vd.invalid(earlyReason, early)
		}
		return refuse("%v", err)
	}
	var plaus *SpawnCounter
	if r.Start != nil && early == nil {
		plaus = &s.counter
		plaus.reset(p)
		plaus.Start(*r.Start)
	}
	if trace {
		emit(frameOf(g, 0, 0, engine.Step{}))
	}
	div, reason := replayLog(g, r, plaus, emit, s)
	if early != nil {
		if earlyReason == ImpossibleClaim && div == nil {
			// The claim alone is false: the moves are a game of the
			// rules, which a copy of it with another claim shares.
			vd.GameSHA256 = gameHash(r, c, vd.Seed, g, s)
		}
		return vd.invalid(earlyReason, early)
	}
	vd.Replayed = true
	vd.Score, vd.MaxTile, vd.Moves, vd.Won, vd.Over, vd.Result = g.Score(), g.MaxTile(), g.Moves(), g.Won(), g.Over(), g.Result()
	if div != nil {
		return vd.invalid(reason, div)
	}
	if plaus != nil {
		vd.Plausibility = plaus.Result()
		vd.Warnings = append(vd.Warnings, vd.Plausibility.warnings(p.Spawn)...)
	}
	if mm := compareClaim(r.Claim, g); len(mm) > 0 {
		vd.Mismatches = mm
		board := g.Board()
		div := &Divergence{Action: len(r.Actions), Move: g.Moves(), Board: &board, Claim: &mm[0]}
		if cb := r.Claim.Board; cb != nil && *cb != board {
			div.Claimed = new(*cb)
		}
		// The moves keep the rules to the end: the game is one of the
		// rules whatever it claims, and its gameSha256 ties a copy of a
		// game with its claim raised to the game.
		vd.GameSHA256 = gameHash(r, c, vd.Seed, g, s)
		return vd.invalid(claimReason(mm[0].Field), div)
	}
	vd.Valid = true
	vd.SHA256 = canonicalHash(r, c, vd.Seed, g, s)
	vd.GameSHA256 = vd.SHA256
	if played, undone := playedLine(r); undone {
		vd.GameSHA256 = canonicalHash(played, c, vd.Seed, g, s)
	}
	return vd
}

// gameHash returns the gameSha256 of r, its game g played to the end of
// its log within the rules: the canonical form's SHA-256 of the game as
// played (playedLine), whose claim is the game's own, not r's.
func gameHash(r *Replay, c *compiled, seed *string, g *engine.Game, s *scratch) string {
	played, _ := playedLine(r)
	return canonicalHash(played, c, seed, g, s)
}

// startGame returns r's game at its start: from its seed, with the spawns
// of gen (the profile's generator), or from its recorded start board.
func startGame(rules *engine.Rules, r *Replay, gen engine.Generator) (*engine.Game, error) {
	if r.Seed != nil {
		if gen != engine.TP1 {
			return rules.NewGameWith(gen, *r.Seed)
		}
		return rules.NewGame(*r.Seed)
	}
	return rules.Load(engine.State{Board: *r.Start})
}

func (vd Verdict) invalid(reason Reason, div *Divergence) Verdict {
	div.reason = reason
	vd.Valid, vd.Reason, vd.Divergence = false, reason, div
	return vd
}

// replayLog plays the log, stopping at the first action the rules refuse;
// with emit it hands each action's frame to emit.
func replayLog(g *engine.Game, r *Replay, plaus *SpawnCounter, emit func(Frame), s *scratch) (*Divergence, Reason) {
	trace := emit != nil
	switch {
	case r.Start == nil && !trace:
		// The fast way: the whole seeded log in one call.
		if n, err := g.Play(r.Actions, nil); err != nil {
			return divergence(g, r, n, err)
		}
		return nil, ""
	case !trace:
		// A spawn-recorded log in one call too, the engine telling where
		// each spawn could have gone (a counted move leaves an empty cell,
		// so an entry of 0 is an action that spawned nothing).
		open := s.openCells(len(r.Actions))
		clear(open)
		if n, err := g.PlayRecorded(r.Actions, r.Spawns, open); err != nil {
			return divergence(g, r, n, err)
		}
		if plaus == nil {
			return nil, "" // an impossible claim's moves, not counted
		}
		for i, o := range open {
			if o != 0 {
				plaus.CountOpen(o, r.Spawns[i])
			}
		}
		return nil, ""
	}
	for i, a := range r.Actions {
		var st engine.Step
		var err error
		d, isMove := a.Direction()
		switch {
		case !isMove:
			st, err = g.Do(a)
		case r.Start != nil:
			st, err = g.MoveSpawn(d, r.Spawns[i])
		default:
			st, err = g.Move(d)
		}
		if err != nil {
			return divergence(g, r, i, err)
		}
		if plaus != nil && st.Changed {
			plaus.Count(g.Board(), st.Spawn)
		}
		if trace {
			emit(frameOf(g, i+1, a, st))
		}
	}
	return nil, ""
}

// divergence describes the refusal of action i (0-based) in game g.
func divergence(g *engine.Game, r *Replay, i int, err error) (*Divergence, Reason) {
	a := r.Actions[i]
	board := g.Board()
	div := &Divergence{Action: i + 1, Move: g.Moves(), Act: a, Board: &board}
	switch {
	case errors.Is(err, engine.ErrFinished):
		div.Ended, div.AwaitingKeep = g.Result(), g.AwaitingKeep()
		return div, AfterEnd
	case errors.Is(err, engine.ErrIllegalMove):
		div.Legal, div.Problem = g.LegalMoves(), err.Error()
		return div, IllegalMove
	case errors.Is(err, engine.ErrBadSpawn):
		div.Spawn = new(r.Spawns[i])
		div.Problem = strings.TrimPrefix(err.Error(), engine.ErrBadSpawn.Error()+": ")
		if d, ok := a.Direction(); ok {
			if sl, serr := board.Slide(d); serr == nil {
				div.Board = new(sl.Board) // the board after the slide, where the tile would go
			}
		}
		return div, BadSpawn
	case errors.Is(err, engine.ErrTileOverflow), errors.Is(err, engine.ErrScoreOverflow), errors.Is(err, engine.ErrMovesOverflow):
		div.Problem = err.Error()
		return div, Overflow
	}
	div.Problem = err.Error() // undo, End run, keep playing refused
	return div, BadAction
}

// claimReason returns the reason of a claimed figure that differs, by
// its field: "claim-" and the field's name, in words joined by "-".
func claimReason(field string) Reason {
	if field == "maxTile" {
		return ClaimMaxTile
	}
	return Reason("claim-" + field)
}

// compareClaim lists the claimed figures the game does not have, the
// move count first (a truncated or padded log shows there).
func compareClaim(c Claim, g *engine.Game) []Mismatch {
	var mm []Mismatch
	count := func(field string, claimed, found uint64) {
		if claimed != found {
			mm = append(mm, Mismatch{field, fmt.Sprint(claimed), fmt.Sprint(found)})
		}
	}
	flag := func(field string, claimed *bool, found bool) {
		if claimed != nil && *claimed != found {
			mm = append(mm, Mismatch{field, fmt.Sprint(*claimed), fmt.Sprint(found)})
		}
	}
	count("moves", uint64(c.Moves), uint64(g.Moves()))
	count("score", c.Score, g.Score())
	count("maxTile", c.MaxTile, g.MaxTile())
	if c.Board != nil && *c.Board != g.Board() {
		mm = append(mm, Mismatch{"board", c.Board.String(), g.Board().String()})
	}
	flag("won", c.Won, g.Won())
	flag("over", c.Over, g.Over())
	if c.Result != nil && *c.Result != g.Result() {
		mm = append(mm, Mismatch{"result", c.Result.Name(), g.Result().Name()})
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
