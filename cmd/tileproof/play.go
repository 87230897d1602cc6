package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// gameJSON is the machine form of a game's state, shared by the commands
// that print one: what the API's player sees (protocol.Observation), with
// the game's profile, seed and legal moves.
type gameJSON struct {
	Profile      string `json:"profile"`
	RulesVersion int    `json:"rulesVersion"`
	Seed         string `json:"seed,omitempty"`
	protocol.Observation
	LegalActions []string `json:"legalActions"`
}

func newGameJSON(g *engine.Game, seed string) gameJSON {
	p := g.Rules().Profile()
	legal := []string{}
	for _, d := range g.LegalMoves() {
		legal = append(legal, d.String())
	}
	return gameJSON{
		Profile: p.Name, RulesVersion: p.Version, Seed: seed,
		Observation:  *protocol.Observe(g),
		LegalActions: legal,
	}
}

// playFlags are the flags of tileproof play.
type playFlags struct {
	seed, profile, moves, output string
	target                       uint64
	openEnded, json              bool
}

func (c *cli) playCommand() *cobra.Command {
	var f playFlags
	cmd := &cobra.Command{
		Use:   "play [flags]",
		Short: "play moves from a seed and show the game; without --moves, play at the terminal",
		Long: `Play a game. With --moves, play the move log from the seed and print the game: the board,
score, moves, max tile, flags and legal moves (--json for a machine). Without --moves, play
at the terminal (arrows or WASD, u undo, e End run, k keep playing, q quit), in colour; the
game is written as a replay when at least one move counted (docs/viewer-terminal.md).

An illegal move in a profile that refuses it exits 1, naming the action.`,
	}
	fl := cmd.Flags()
	fl.StringVar(&f.seed, "seed", "", "the seed `TEXT` (tp1: 1 to 96 characters once trimmed); at the terminal, a random one when not given")
	fl.StringVar(&f.profile, "profile", "tile-merge", "a built-in profile's `NAME`, or a profile YAML file")
	fl.StringVar(&f.moves, "moves", "", "the move `LOG`: U D L R, Z undo, E End run, K keep playing; white space ignored")
	numFlag(fl, &f.target, "target", 0, "the run's target `TILE`, in a profile that offers a choice (online-2048); 0: the profile's own")
	fl.BoolVar(&f.openEnded, "open-ended", false, "play on past the target, in a profile that offers it")
	fl.BoolVar(&f.json, "json", false, "print the game as JSON")
	fl.StringVarP(&f.output, "output", "o", "", "at the terminal, write the game as a replay to `FILE` (default: a new file named after the profile and seed)")
	cmd.RegisterFlagCompletionFunc("profile", completeProfiles)
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.play(cmd, &f, args) })
	return cmd
}

func (c *cli) play(cmd *cobra.Command, f *playFlags, args []string) int {
	if len(args) > 0 {
		return c.fail(exitBadUsage, "play: unexpected argument %q", args[0])
	}
	// Without --moves (and --json, which prints a state), a person plays
	// at the terminal.
	interactive := !cmd.Flags().Changed("moves") && !f.json
	if interactive && f.seed == "" {
		var b [8]byte
		rand.Read(b[:]) // it never fails
		f.seed = hex.EncodeToString(b[:])
	}
	if f.seed == "" {
		return c.fail(exitBadUsage, "play: --seed is required")
	}
	if !interactive && f.output != "" {
		return c.fail(exitBadUsage, "play: -o writes the game played at the terminal; with --moves, use tileproof record --moves LOG -o FILE")
	}
	if err := notAnInput("-o", f.output, f.profile); f.output != "" && err != nil {
		return c.fail(exitBadUsage, "play: %v", err)
	}
	p, setup, err := loadSetupProfile(f.profile, f.target, f.openEnded)
	if err != nil {
		return c.fail(exitBadUsage, "play: %v", err)
	}
	actions, err := engine.ParseActions(f.moves) // none at the terminal
	if err != nil {
		return c.fail(exitBadUsage, "play: --moves: %v", err)
	}
	rules, err := engine.Compile(p)
	if err != nil {
		return c.fail(exitBadUsage, "play: %v", err)
	}
	g, err := rules.NewSeeded(f.seed)
	if err != nil {
		return c.fail(exitBadUsage, "play: %v", err)
	}
	if interactive {
		return c.playTerminal(g, f.seed, setup, f.output)
	}
	n, playErr := g.Play(actions, nil)
	if f.json {
		out, _ := json.Marshal(newGameJSON(g, f.seed))
		fmt.Fprintf(c.stdout, "%s\n", out)
	} else {
		printGame(c.stdout, g, f.seed)
	}
	if playErr != nil {
		return c.fail(failCode(playErr), "play: action %d (%s): %v", n+1, actions[n], playErr)
	}
	return exitOK
}

// printGame writes a game's state for a person.
func printGame(w io.Writer, g *engine.Game, seed string) {
	p := g.Rules().Profile()
	fmt.Fprintf(w, "profile   %s (rules v%d)\n", p.Name, p.Version)
	if seed != "" {
		fmt.Fprintf(w, "seed      %q\n", seed)
	}
	fmt.Fprintln(w)
	for _, line := range strings.Split(g.Board().String(), "\n") {
		fmt.Fprintf(w, "    %s\n", line)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "score     %d\n", g.Score())
	fmt.Fprintf(w, "moves     %d\n", g.Moves())
	fmt.Fprintf(w, "max tile  %d\n", g.MaxTile())
	fmt.Fprintf(w, "won       %v\n", g.Won())
	fmt.Fprintf(w, "over      %v (%s)\n", g.Over(), g.Result())
	legal := newGameJSON(g, seed).LegalActions
	if len(legal) == 0 {
		legal = append(legal, "none")
	}
	fmt.Fprintf(w, "legal     %s\n", strings.Join(legal, ", "))
}
