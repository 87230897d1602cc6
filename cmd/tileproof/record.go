package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/player"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/replay/batchfiles"
)

// recordFlags are the flags of tileproof record.
type recordFlags struct {
	seed, profile, moves, player, output, impl string
	target, playerSeed                         uint64
	openEnded, keep, spawns, commit, json      bool
	maxMoves, games                            int
	timeout, startTimeout                      time.Duration
}

func (c *cli) recordCommand() *cobra.Command {
	var f recordFlags
	cmd := &cobra.Command{
		Use:   "record --seed S (--moves LOG | --player NAME) [flags]",
		Short: "record games as replays, from a move log or by a built-in player",
		Long: `Record games as replays, to make test data: from a seed and a move log, or played by a
built-in player (random or expectimax), one or many (--games). The claim is everything the
game reached. A seeded game spawns by its profile's generator, as verify replays it: tp1, or
hallabois-lcg under hallabois-4x4 and hallabois-3x3 (whose seeds are numbers).

With --impl exec:COMMAND --player P the games are played in another implementation and
recorded with its spawns (spawn-recorded replays, no seed, the claim the implementation's
own state: score, moves, board, won, over, result). Every step is compared with the engine
as conform --observe compares it (moves that change nothing and one move after the end
included); when the implementation breaks the rules, the game written ends there and
record exits 1 naming the step. Without --profile, the games are played under the first
profile the implementation declares.`,
	}
	fl := cmd.Flags()
	fl.StringVar(&f.seed, "seed", "", "the seed `TEXT`; with --games N, the games use TEXT-1 ... TEXT-N")
	fl.StringVar(&f.profile, "profile", "tile-merge", "a built-in profile's `NAME`, or a profile YAML file (with --impl, default: its first)")
	numFlag(fl, &f.target, "target", 0, "the run's target `TILE`, in a profile that offers a choice; 0: the profile's own")
	fl.BoolVar(&f.openEnded, "open-ended", false, "play on past the target, in a profile that offers it")
	fl.StringVar(&f.moves, "moves", "", "the move `LOG` to record (-: read from stdin, white space ignored)")
	fl.StringVar(&f.player, "player", "", "let a built-in player play: `NAME` random or expectimax")
	numFlag(fl, &f.playerSeed, "player-seed", 1, "the random player's `SEED`")
	numFlag(fl, &f.maxMoves, "max-moves", 0, "stop a player after `N` counted moves (0: play to the end)")
	fl.BoolVar(&f.keep, "keep-playing", false, "when the run stops at the win and the profile asks (classic), record K and play on")
	numFlag(fl, &f.games, "games", 1, "record `N` games (more than 1 with --player)")
	fl.BoolVar(&f.spawns, "spawns", false, "write the spawn-recorded form: the start board and each spawn, no seed (a game of more actions than verify reads, 2^22, is refused)")
	fl.BoolVar(&f.commit, "commit", false, "add the seed's SHA-256 commitment")
	fl.BoolVar(&f.json, "json", false, "write JSON, one replay a line (the default for more than one game)")
	fl.StringVarP(&f.output, "output", "o", "", "write to `FILE` instead of stdout")
	fl.StringVar(&f.impl, "impl", "", "play the games in another implementation, exec:`COMMAND` (docs/protocol.md), its own generator making the spawns")
	fl.DurationVar(&f.timeout, "timeout", 5*time.Second, "with --impl: the driver's timeout for each request, a `DURATION` such as 5s")
	startTimeoutFlag(fl, &f.startTimeout)
	cmd.RegisterFlagCompletionFunc("profile", completeProfiles)
	cmd.RegisterFlagCompletionFunc("player", cobra.FixedCompletions(player.Names(), cobra.ShellCompDirectiveNoFileComp))
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.record(cmd, &f, args) })
	return cmd
}

func (c *cli) record(cmd *cobra.Command, f *recordFlags, args []string) int {
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
	}
	pl, err := player.New(f.player, f.playerSeed) // none, and an error, for a move log
	if f.player != "" && err != nil {
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
	moves := f.moves
	if moves == "-" {
		// A log longer than a command line takes: from stdin, as long
		// as a replay file may be.
		data, err := batchfiles.ReadAtMost(c.stdin, batchfiles.MaxReplaySize)
		if err != nil {
			return c.fail(exitBadUsage, "record: --moves -: stdin: %v", err)
		}
		if len(bytes.TrimSpace(data)) == 0 {
			return c.fail(exitBadUsage, "record: --moves -: stdin holds no move log")
		}
		moves = string(data)
	}
	log, err := engine.ParseActions(moves) // none for a player
	if err != nil {
		return c.fail(exitBadUsage, "record: --moves: %v", err)
	}
	w := c.stdout
	if f.output != "" {
		// Opened first, so that a bad -o fails before the games; a file
		// that was there is not emptied until a replay is written, and
		// one this run made is removed if none is.
		if err := notAnInput("-o", f.output, f.profile); err != nil {
			return c.fail(exitBadUsage, "record: %v", err)
		}
		out, err := createReplayFile(f.output, "", "")
		if err != nil {
			return c.fail(exitBadUsage, "record: %v", err)
		}
		defer out.close()
		w = out
	}
	var impl conformance.Impl
	var playing *run // the run of the implementation's games: a signal stops it
	if f.impl != "" {
		playing = newRun(cmd.Context(), 0)
		defer playing.stop()
		if impl, err = c.openImpl(playing, f.impl, nil, f.timeout, f.startTimeout); err != nil {
			return c.fail(exitBadUsage, "record: %v", err)
		}
		defer impl.Close()
		if p, err = c.implProfile(impl, cmd.Flags().Changed("profile"), p); err != nil {
			return c.fail(exitBadUsage, "record: %v", err)
		}
	}
	for i := 1; i <= f.games; i++ {
		if impl != nil {
			g, err := conformance.PlayObserved(impl, p, pl, conformance.ObservedGameOptions{
				MaxMoves: cmp.Or(f.maxMoves, math.MaxInt), Legal: conformance.LegalOffered(impl), Noop: f.playerSeed*1000 + uint64(i), KeepPlaying: f.keep,
			})
			if code := c.interrupted(playing, "record"); code != 0 {
				return code // the game under way is not written
			}
			if err != nil {
				return c.fail(exitFailed, "record: game %d: %v", i, err)
			}
			g.Replay.Source = fmt.Sprintf("tileproof record --impl %s --player %s", f.impl, pl.Name())
			if err := spawnLogFits(g.Replay, true); err != nil {
				return c.fail(exitFailed, "record: game %d: %v", i, err)
			}
			if err := writeReplay(w, g.Replay, f.json || f.games > 1); err != nil {
				return c.fail(exitBadUsage, "record: %v", err)
			}
			if d := g.Divergence; d != nil {
				return c.fail(exitFailed, "record: game %d: the implementation broke the rules at step %d: %s: %s; the replay written ends there, and tileproof verify shows where it leaves the rules", i, d.Step, d.Status, d.Reason)
			}
			continue
		}
		s := f.seed
		if f.games > 1 {
			s = fmt.Sprintf("%s-%d", f.seed, i)
		}
		rec, err := replay.NewRecorder(rules, s)
		if _, bad := errors.AsType[*engine.SeedError](err); bad && f.games > 1 {
			// The seed given may be good; the ones --games made of it are not.
			return c.fail(exitBadUsage, "record: --games %d plays the seeds %s-1 to %s-%d: %v; record one game a --seed", f.games, f.seed, f.seed, f.games, err)
		}
		if err == nil {
			err = playOut(rec, log, pl, f.maxMoves, f.keep)
		}
		if err != nil {
			return c.fail(failCode(err), "record: %v", err)
		}
		r := rec.Seeded()
		if f.spawns {
			r = rec.SpawnRecorded()
		}
		if pl != nil {
			r.Source = fmt.Sprintf("tileproof record --player %s", pl.Name())
		}
		r.Setup = setup
		if f.commit && r.Seed != nil {
			// The seed was read by the engine already, so it normalizes.
			r.SeedCommitment, _ = replay.Commitment(*r.Seed)
		}
		if err := spawnLogFits(r, false); err != nil {
			return c.fail(exitFailed, "record: game %d: %v", i, err)
		}
		if err := writeReplay(w, r, f.json || f.games > 1); err != nil {
			return c.fail(exitBadUsage, "record: %v", err)
		}
	}
	return exitOK
}

// playOut plays the game of rec by the move log, or by the player pl to
// the end (or maxMoves counted moves, when not 0), answering the win's
// question with keep-playing when keep is set.
func playOut(rec *replay.Recorder, log []engine.Action, pl player.Player, maxMoves int, keep bool) error {
	if pl == nil {
		for _, a := range log {
			if err := rec.Do(a); err != nil {
				return err
			}
		}
		return nil
	}
	g := rec.Game()
	for maxMoves == 0 || g.Moves() < maxMoves {
		a := engine.KeepPlaying
		if !g.Over() {
			a = engine.Action(pl.Choose(g))
		} else if !keep || !g.AwaitingKeep() {
			break
		}
		if err := rec.Do(a); err != nil {
			return err
		}
	}
	return nil
}

// spawnLogFits refuses, before it is written, a spawn-recorded replay
// longer than verify reads (replay.MaxSpawnLogActions): a game played
// to its end on a large board at random can pass it. impl says the game
// was played through --impl, which records spawn by spawn whatever the
// flags: then only --max-moves helps.
func spawnLogFits(r *replay.Replay, impl bool) error {
	if r.Start == nil || len(r.Actions) <= replay.MaxSpawnLogActions {
		return nil
	}
	way := "end the game sooner with --max-moves, or record it seeded (without --spawns)"
	if impl {
		way = "end the game sooner with --max-moves (a game played through --impl is recorded spawn by spawn)"
	}
	return fmt.Errorf("%d actions; a spawn-recorded replay holds at most %d, so verify would refuse it: %s", len(r.Actions), replay.MaxSpawnLogActions, way)
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

// failCode is the exit status of a game that err stopped: a usage error
// for an action the profile does not have or a bad seed, else a failure.
func failCode(err error) int {
	if _, ok := errors.AsType[*engine.SeedError](err); ok || errors.Is(err, engine.ErrUnsupported) {
		return exitBadUsage
	}
	return exitFailed
}

// implProfile returns the profile to play in impl: p, which the
// implementation must declare, when --profile was given; else the first
// profile it declares, said on stderr.
func (c *cli) implProfile(impl conformance.Impl, asked bool, p *engine.Profile) (*engine.Profile, error) {
	h, err := conformance.HelloOf(impl)
	if err != nil {
		return nil, err
	}
	var names []string
	if asked {
		names = []string{p.Name}
	}
	ps, err := conformance.Profiles(h, names, []*engine.Profile{p})
	if err != nil {
		return nil, err
	}
	if !asked {
		fmt.Fprintf(c.stderr, "tileproof: record: profile %s, the first the implementation declares\n", ps[0].Name)
	}
	return ps[0], nil
}
