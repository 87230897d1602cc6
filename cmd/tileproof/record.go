package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/player"
	"github.com/tileproof/tileproof/replay"
)

func (c *cli) record(args []string) int {
	fs := c.flags("record")
	seed := fs.String("seed", "", "the seed text; with --games N, the games use S-1 ... S-N")
	profile := fs.String("profile", "tile-merge", "a built-in profile's name, or a profile YAML file")
	target := fs.Uint64("target", 0, "the run's target tile, in a profile that offers a choice")
	openEnded := fs.Bool("open-ended", false, "play on past the target, in a profile that offers it")
	moves := fs.String("moves", "", "the move log to record")
	playerName := fs.String("player", "", "let a built-in player play: random or expectimax")
	playerSeed := fs.Uint64("player-seed", 1, "the random player's seed")
	maxMoves := fs.Int("max-moves", 0, "stop a player after this many counted moves (0: play to the end)")
	keep := fs.Bool("keep-playing", false, "when the run stops at the win and the profile asks (classic), record K and play on")
	games := fs.Int("games", 1, "how many games to record (with --player)")
	spawns := fs.Bool("spawns", false, "write the spawn-recorded form: the start board and each spawn, no seed")
	commit := fs.Bool("commit", false, "add the seed's SHA-256 commitment")
	asJSON := fs.Bool("json", false, "write JSON, one replay a line (the default for more than one game)")
	output := fs.String("o", "", "write to this file instead of stdout")
	implArg := fs.String("impl", "", "play the games in another implementation, exec:COMMAND (docs/protocol.md), its own generator making the spawns: spawn-recorded replays")
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	switch {
	case fs.NArg() > 0:
		return c.fail(exitBadUsage, "record: unexpected argument %q", fs.Arg(0))
	case *seed == "" && *implArg == "":
		return c.fail(exitBadUsage, "record: --seed is required")
	case *implArg != "" && *playerName == "":
		return c.fail(exitBadUsage, "record: --impl needs --player to choose the moves")
	case (*moves == "") == (*playerName == ""):
		return c.fail(exitBadUsage, "record: give either --moves or --player")
	case *games < 1 || *games > 1 && *playerName == "":
		return c.fail(exitBadUsage, "record: --games takes 1 or more games, and more than 1 only with --player")
	}
	p, setup, err := loadSetupProfile(*profile, *target, *openEnded)
	if err != nil {
		return c.fail(exitBadUsage, "record: %v", err)
	}
	rules, err := engine.Compile(p)
	if err != nil {
		return c.fail(exitBadUsage, "record: %v", err)
	}
	var log []engine.Action
	if *moves != "" {
		if log, err = engine.ParseActions(*moves); err != nil {
			return c.fail(exitBadUsage, "record: --moves: %v", err)
		}
	}
	var pl player.Player
	if *playerName != "" {
		if pl, err = player.New(*playerName, *playerSeed); err != nil {
			return c.fail(exitBadUsage, "record: %v", err)
		}
	}
	w := c.stdout
	if *output != "" {
		f, err := os.Create(*output)
		if err != nil {
			return c.fail(exitBadUsage, "record: %v", err)
		}
		defer f.Close()
		w = f
	}
	var impl conformance.Impl
	if *implArg != "" {
		if impl, err = c.openImpl(*implArg, 5*time.Second); err != nil {
			return c.fail(exitBadUsage, "record: %v", err)
		}
		defer impl.Close()
	}
	for i := 1; i <= *games; i++ {
		if impl != nil {
			r, divergence, err := recordFromImpl(impl, rules, pl, *maxMoves, *implArg)
			if err != nil {
				return c.fail(exitFailed, "record: game %d: %v", i, err)
			}
			if err := writeReplay(w, r, *asJSON || *games > 1); err != nil {
				return c.fail(exitBadUsage, "record: %v", err)
			}
			if divergence != "" {
				return c.fail(exitFailed, "record: game %d: the implementation broke the rules at %s; the game up to there is written, and tileproof verify shows the difference", i, divergence)
			}
			continue
		}
		s := *seed
		if *games > 1 {
			s = fmt.Sprintf("%s-%d", *seed, i)
		}
		r, err := recordGame(rules, s, log, pl, *maxMoves, *keep, *spawns)
		if err != nil {
			code := exitFailed
			if errors.Is(err, engine.ErrUnsupported) {
				code = exitBadUsage
			}
			var se *engine.SeedError
			if errors.As(err, &se) {
				code = exitBadUsage
			}
			return c.fail(code, "record: %v", err)
		}
		r.Setup = setup
		if *commit && r.Seed != nil {
			// The seed was read by the engine already, so it normalizes.
			r.SeedCommitment, _ = replay.Commitment(*r.Seed)
		}
		if err := writeReplay(w, r, *asJSON || *games > 1); err != nil {
			return c.fail(exitBadUsage, "record: %v", err)
		}
	}
	return exitOK
}

// recordGame plays one game, from a log or by a player, and returns it as
// a replay whose claim is everything the game reached.
func recordGame(rules *engine.Rules, seed string, log []engine.Action, pl player.Player, maxMoves int, keep, spawnForm bool) (*replay.Replay, error) {
	g, err := rules.NewGame(seed)
	if err != nil {
		return nil, err
	}
	start := g.Board()
	var actions []engine.Action
	var spawns []engine.Spawn
	do := func(a engine.Action) error {
		step, err := g.Do(a)
		if err != nil {
			return fmt.Errorf("action %d (%s): %w", len(actions)+1, a, err)
		}
		if _, isMove := a.Direction(); isMove && !step.Changed {
			return nil // a replay records the moves that count
		}
		actions, spawns = append(actions, a), append(spawns, step.Spawn)
		return nil
	}
	if pl == nil {
		for _, a := range log {
			if err := do(a); err != nil {
				return nil, err
			}
		}
	} else {
		for maxMoves == 0 || g.Moves() < maxMoves {
			a := engine.KeepPlaying
			if !g.Over() {
				a = engine.Action(pl.Choose(g))
			} else if !keep || !g.AwaitingKeep() {
				break
			}
			if err := do(a); err != nil {
				return nil, err
			}
		}
	}
	r := gameReplay(g, seed, actions)
	if pl != nil {
		r.Source = fmt.Sprintf("tileproof record --player %s", pl.Name())
	}
	if spawnForm {
		r.Seed, r.RNG = nil, ""
		r.Start, r.Spawns = &start, spawns
	}
	return r, nil
}

// gameReplay returns game g, played from seed by actions (the ones that
// count), as a seeded replay whose claim is everything the game reached.
func gameReplay(g *engine.Game, seed string, actions []engine.Action) *replay.Replay {
	board, won, over, result := g.Board(), g.Won(), g.Over(), g.Result()
	return &replay.Replay{
		Profile: g.Rules().Name(), Rules: g.Rules().Version(), Seed: &seed, RNG: engine.RNGID, Actions: actions,
		Claim: replay.Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves(), Board: &board, Won: &won, Over: &over, Result: &result},
	}
}

func writeReplay(w io.Writer, r *replay.Replay, asJSON bool) error {
	var err error
	if asJSON {
		_, err = fmt.Fprintf(w, "%s\n", r.EncodeJSON())
	} else {
		_, err = w.Write(r.EncodeYAML(80))
	}
	return err
}

// recordFromImpl plays one game in another implementation, the player
// choosing on a mirror of it in the engine, and records the spawns the
// implementation made and the claim it reports: a spawn-recorded replay
// for tileproof verify to judge. When the implementation breaks the rules
// (a spawn the rules refuse, a legal move it does not make, or a board or
// score after a move that differs from the rules' own), the game
// stops there and divergence says where; the replay holds the game up to
// and including that move, so verify can show the difference.
func recordFromImpl(impl conformance.Impl, rules *engine.Rules, pl player.Player, maxMoves int, name string) (r *replay.Replay, divergence string, err error) {
	p := rules.Profile()
	st, err := impl.New(p.Name, "", nil)
	if err != nil {
		return nil, "", fmt.Errorf("new game: %w", err)
	}
	start := st.Board
	mirror, err := rules.Load(engine.State{Board: start})
	if err != nil {
		return nil, "", fmt.Errorf("the implementation's start board: %w", err)
	}
	r = &replay.Replay{Profile: p.Name, Rules: p.Version, Start: &start, Source: fmt.Sprintf("tileproof record --impl %s --player %s", name, pl.Name())}
	for !st.Over && !mirror.Over() && (maxMoves == 0 || st.Moves < maxMoves) {
		d := pl.Choose(mirror)
		n := len(r.Actions) + 1
		mr, err := impl.Move(d, nil)
		if err != nil {
			return nil, "", fmt.Errorf("move %d (%s): %w", n, d, err)
		}
		if !mr.Changed {
			divergence = fmt.Sprintf("move %d (%s): the rules change the board, the implementation reports no change", n, d)
			break
		}
		if mr.Spawn == nil {
			divergence = fmt.Sprintf("move %d (%s): the implementation reports no spawn after a move that changed the board", n, d)
			break
		}
		r.Actions, r.Spawns = append(r.Actions, engine.Action(d)), append(r.Spawns, *mr.Spawn)
		st = mr.State
		if _, err := mirror.MoveSpawn(d, *mr.Spawn); err != nil {
			divergence = fmt.Sprintf("move %d (%s): %v", n, d, err)
			break
		}
		if mirror.Board() != st.Board {
			divergence = fmt.Sprintf("move %d (%s): its board differs from the rules'", n, d)
			break
		}
		if mirror.Score() != st.Score {
			divergence = fmt.Sprintf("move %d (%s): its score is %d, the rules give %d", n, d, st.Score, mirror.Score())
			break
		}
	}
	board := st.Board
	r.Claim = replay.Claim{Score: st.Score, MaxTile: board.MaxTile(), Moves: len(r.Actions), Board: &board}
	return r, divergence, nil
}
