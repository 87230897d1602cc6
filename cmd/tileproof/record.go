package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/player"
	"github.com/tileproof/tileproof/replay"
)

func (c *cli) record(args []string) int {
	fs := c.flags("record", "--seed S [--profile P] (--moves LOG | --player NAME) [--games N] [--spawns] [--json] [-o FILE]")
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
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	switch {
	case fs.NArg() > 0:
		return c.fail(exitBadUsage, "record: unexpected argument %q", fs.Arg(0))
	case *seed == "":
		return c.fail(exitBadUsage, "record: --seed is required")
	case (*moves == "") == (*playerName == ""):
		return c.fail(exitBadUsage, "record: give either --moves or --player")
	case *games < 1 || *games > 1 && *playerName == "":
		return c.fail(exitBadUsage, "record: --games takes 1 or more games, and more than 1 only with --player")
	}
	p, err := loadProfile(*profile)
	if err == nil && (*target != 0 || *openEnded) {
		if *target == 0 {
			*target = p.Win.Tile
		}
		p, err = p.Setup(*target, *openEnded)
	}
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
	for i := 1; i <= *games; i++ {
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
		if *target != 0 || *openEnded {
			r.Setup = &replay.Setup{Target: p.Win.Tile, OpenEnded: *openEnded}
		}
		if *commit && r.Seed != nil {
			sum := sha256.Sum256([]byte(*r.Seed))
			r.SeedCommitment = "sha256:" + hex.EncodeToString(sum[:])
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
	p := rules.Profile()
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
			} else if !keep || g.Result() != engine.TargetReached || p.Win.Then != engine.Ask {
				break
			}
			if err := do(a); err != nil {
				return nil, err
			}
		}
	}
	board, won, over, result := g.Board(), g.Won(), g.Over(), g.Result()
	r := &replay.Replay{
		Profile: p.Name, Rules: p.Version, Actions: actions,
		Claim: replay.Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves(), Board: &board, Won: &won, Over: &over, Result: &result},
	}
	if pl != nil {
		r.Source = fmt.Sprintf("tileproof record --player %s", pl.Name())
	}
	if spawnForm {
		r.Start, r.Spawns = &start, spawns
	} else {
		r.Seed, r.RNG = &seed, engine.RNGID
	}
	return r, nil
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
