package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/player"
	"github.com/tileproof/tileproof/replay"
)

// recordFlags are the flags of tileproof record.
type recordFlags struct {
	seed, profile, moves, player, output, impl string
	target, playerSeed                         uint64
	openEnded, keep, spawns, commit, json      bool
	maxMoves, games                            int
}

func (c *cli) recordCommand() *cobra.Command {
	var f recordFlags
	cmd := &cobra.Command{
		Use:   "record --seed S (--moves LOG | --player NAME) [flags]",
		Short: "record games as replays, from a move log or by a built-in player",
		Long: `Record games as replays, to make test data: from a seed and a move log, or played by a
built-in player (random or expectimax), one or many (--games). The claim is everything the
game reached. With --impl exec:COMMAND --player P the games are played in another
implementation and recorded with its spawns (spawn-recorded replays, no seed); when it
breaks the rules, record exits 1 naming the move.`,
	}
	c.flags(cmd, func(fl *pflag.FlagSet) {
		fl.StringVar(&f.seed, "seed", "", "the seed `TEXT`; with --games N, the games use TEXT-1 ... TEXT-N")
		fl.StringVar(&f.profile, "profile", "tile-merge", "a built-in profile's `NAME`, or a profile YAML file")
		uint64Flag(fl, &f.target, "target", 0, "the run's target `TILE`, in a profile that offers a choice; 0: the profile's own")
		fl.BoolVar(&f.openEnded, "open-ended", false, "play on past the target, in a profile that offers it")
		fl.StringVar(&f.moves, "moves", "", "the move `LOG` to record")
		fl.StringVar(&f.player, "player", "", "let a built-in player play: `NAME` random or expectimax")
		uint64Flag(fl, &f.playerSeed, "player-seed", 1, "the random player's `SEED`")
		intFlag(fl, &f.maxMoves, "max-moves", 0, "stop a player after `N` counted moves (0: play to the end)")
		fl.BoolVar(&f.keep, "keep-playing", false, "when the run stops at the win and the profile asks (classic), record K and play on")
		intFlag(fl, &f.games, "games", 1, "how many games to record (more than 1 with --player)")
		fl.BoolVar(&f.spawns, "spawns", false, "write the spawn-recorded form: the start board and each spawn, no seed")
		fl.BoolVar(&f.commit, "commit", false, "add the seed's SHA-256 commitment")
		fl.BoolVar(&f.json, "json", false, "write JSON, one replay a line (the default for more than one game)")
		fl.StringVarP(&f.output, "output", "o", "", "write to `FILE` instead of stdout")
		fl.StringVar(&f.impl, "impl", "", "play the games in another implementation, exec:`COMMAND` (docs/protocol.md), its own generator making the spawns")
		registerProfileCompletion(cmd, "profile")
		cmd.RegisterFlagCompletionFunc("player", cobra.FixedCompletions(player.Names(), cobra.ShellCompDirectiveNoFileComp))
	})
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.record(&f, args) })
	return cmd
}

func (c *cli) record(f *recordFlags, args []string) int {
	switch {
	case len(args) > 0:
		return c.fail(exitBadUsage, "record: unexpected argument %q", args[0])
	case f.seed == "" && f.impl == "":
		return c.fail(exitBadUsage, "record: --seed is required")
	case f.impl != "" && f.player == "":
		return c.fail(exitBadUsage, "record: --impl needs --player to choose the moves")
	case (f.moves == "") == (f.player == ""):
		return c.fail(exitBadUsage, "record: give either --moves or --player")
	case f.games < 1 || f.games > 1 && f.player == "":
		return c.fail(exitBadUsage, "record: --games takes 1 or more games, and more than 1 only with --player")
	case f.maxMoves < 0:
		return c.fail(exitBadUsage, "record: --max-moves %d: give 0 or more", f.maxMoves)
	case f.player != "" && !slices.Contains(player.Names(), f.player):
		return c.fail(exitBadUsage, "record: no player %q; the players are %s", f.player, strings.Join(player.Names(), " and "))
	}
	p, setup, err := loadSetupProfile(f.profile, f.target, f.openEnded)
	if err != nil {
		return c.fail(exitBadUsage, "record: %v", err)
	}
	rules, err := engine.Compile(p)
	if err != nil {
		return c.fail(exitBadUsage, "record: %v", err)
	}
	var log []engine.Action
	if f.moves != "" {
		if log, err = engine.ParseActions(f.moves); err != nil {
			return c.fail(exitBadUsage, "record: --moves: %v", err)
		}
	}
	var pl player.Player
	if f.player != "" {
		if pl, err = player.New(f.player, f.playerSeed); err != nil {
			return c.fail(exitBadUsage, "record: %v", err)
		}
	}
	w := c.stdout
	if f.output != "" {
		out, err := os.Create(f.output)
		if err != nil {
			return c.fail(exitBadUsage, "record: %v", err)
		}
		defer out.Close()
		w = out
	}
	var impl conformance.Impl
	if f.impl != "" {
		if impl, err = c.openImpl(f.impl, 5*time.Second); err != nil {
			return c.fail(exitBadUsage, "record: %v", err)
		}
		defer impl.Close()
	}
	for i := 1; i <= f.games; i++ {
		if impl != nil {
			r, divergence, written, err := recordFromImpl(impl, rules, pl, f.maxMoves, f.impl)
			if err != nil {
				return c.fail(exitFailed, "record: game %d: %v", i, err)
			}
			if err := writeReplay(w, r, f.json || f.games > 1); err != nil {
				return c.fail(exitBadUsage, "record: %v", err)
			}
			switch {
			case divergence != "" && written:
				return c.fail(exitFailed, "record: game %d: the implementation broke the rules at %s; the replay written ends with that move, and tileproof verify shows the difference", i, divergence)
			case divergence != "":
				return c.fail(exitFailed, "record: game %d: the implementation broke the rules at %s; its answer cannot be written as a replay's move, so the replay written stops before it (and verifies)", i, divergence)
			}
			continue
		}
		s := f.seed
		if f.games > 1 {
			s = fmt.Sprintf("%s-%d", f.seed, i)
		}
		r, err := recordGame(rules, s, log, pl, f.maxMoves, f.keep, f.spawns)
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
		if f.commit && r.Seed != nil {
			// The seed was read by the engine already, so it normalizes.
			r.SeedCommitment, _ = replay.Commitment(*r.Seed)
		}
		if err := writeReplay(w, r, f.json || f.games > 1); err != nil {
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
// stops there and divergence says where. written says whether the replay
// holds that move, so that verify shows the difference: a move the
// implementation reports as no change, or with no spawn, cannot be
// written, and the replay stops before it.
func recordFromImpl(impl conformance.Impl, rules *engine.Rules, pl player.Player, maxMoves int, name string) (r *replay.Replay, divergence string, written bool, err error) {
	p := rules.Profile()
	st, err := impl.New(p.Name, "", nil)
	if err != nil {
		return nil, "", false, fmt.Errorf("new game: %w", err)
	}
	start := st.Board
	mirror, err := rules.Load(engine.State{Board: start})
	if err != nil {
		return nil, "", false, fmt.Errorf("the implementation's start board: %w", err)
	}
	r = &replay.Replay{Profile: p.Name, Rules: p.Version, Start: &start, Source: fmt.Sprintf("tileproof record --impl %s --player %s", name, pl.Name())}
	for !st.Over && !mirror.Over() && (maxMoves == 0 || st.Moves < maxMoves) {
		d := pl.Choose(mirror)
		n := len(r.Actions) + 1
		written = false // this move is not in the replay yet
		mr, err := impl.Move(d, nil)
		if err != nil {
			return nil, "", false, fmt.Errorf("move %d (%s): %w", n, d, err)
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
		st, written = mr.State, true
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
	return r, divergence, divergence != "" && written, nil
}
