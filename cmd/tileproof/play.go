package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tileproof/tileproof/engine"
)

// gameJSON is the machine form of a game's state, shared by the commands
// that print one.
type gameJSON struct {
	Profile      string     `json:"profile"`
	RulesVersion int        `json:"rulesVersion"`
	Seed         string     `json:"seed,omitempty"`
	Board        [][]uint64 `json:"board"`
	Score        uint64     `json:"score"`
	Moves        int        `json:"moves"`
	MaxTile      uint64     `json:"maxTile"`
	Won          bool       `json:"won"`
	Over         bool       `json:"over"`
	Result       string     `json:"result"`
	LegalActions []string   `json:"legalActions"`
}

func newGameJSON(g *engine.Game, seed string) gameJSON {
	p := g.Rules().Profile()
	res, _ := g.Result().MarshalText()
	legal := []string{}
	for _, d := range g.LegalMoves() {
		legal = append(legal, d.String())
	}
	return gameJSON{
		Profile: p.Name, RulesVersion: p.Version, Seed: seed,
		Board: g.Board().Values(), Score: g.Score(), Moves: g.Moves(), MaxTile: g.MaxTile(),
		Won: g.Won(), Over: g.Over(), Result: string(res), LegalActions: legal,
	}
}

func (c *cli) play(args []string) int {
	fs := c.flags("play")
	seed := fs.String("seed", "", "the seed text (tp1: 1 to 96 characters once trimmed); playing at the terminal, a random one by default")
	profile := fs.String("profile", "tile-merge", "a built-in profile's name, or a profile YAML file")
	moves := fs.String("moves", "", "the move log: U D L R, Z undo, E end run, K keep playing; white space ignored")
	target := fs.Uint64("target", 0, "the run's target tile, in a profile that offers a choice (online-2048)")
	openEnded := fs.Bool("open-ended", false, "play on past the target, in a profile that offers it")
	asJSON := fs.Bool("json", false, "print the game as JSON")
	output := fs.String("o", "", "playing at the terminal: write the game as a replay to this file (default: a new file named after the seed)")
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return c.fail(exitBadUsage, "play: unexpected argument %q", fs.Arg(0))
	}
	// Without --moves (and --json, which prints a state), a person plays
	// at the terminal.
	interactive := !flagSet(fs, "moves") && !*asJSON
	if interactive && *seed == "" {
		var err error
		if *seed, err = randomSeed(); err != nil {
			return c.fail(exitBadUsage, "play: %v", err)
		}
	}
	if *seed == "" {
		return c.fail(exitBadUsage, "play: --seed is required")
	}
	if !interactive && *output != "" {
		return c.fail(exitBadUsage, "play: -o writes the game played at the terminal; with --moves, use tileproof record --moves LOG -o FILE")
	}
	p, setup, err := loadSetupProfile(*profile, *target, *openEnded)
	if err != nil {
		return c.fail(exitBadUsage, "play: %v", err)
	}
	if interactive {
		return c.playTerminal(p, *seed, setup, *output)
	}
	actions, err := engine.ParseActions(*moves)
	if err != nil {
		return c.fail(exitBadUsage, "play: --moves: %v", err)
	}
	g, err := engine.NewGame(p, *seed)
	if err != nil {
		return c.fail(exitBadUsage, "play: %v", err)
	}
	n, playErr := g.Play(actions, nil)
	if *asJSON {
		out, _ := json.Marshal(newGameJSON(g, *seed))
		fmt.Fprintf(c.stdout, "%s\n", out)
	} else {
		printGame(c.stdout, g, *seed)
	}
	if playErr != nil {
		code := exitFailed
		if errors.Is(playErr, engine.ErrUnsupported) {
			code = exitBadUsage
		}
		return c.fail(code, "play: action %d (%s): %v", n+1, actions[n], playErr)
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
	legal := []string{}
	for _, d := range g.LegalMoves() {
		legal = append(legal, d.String())
	}
	if len(legal) == 0 {
		legal = append(legal, "none")
	}
	fmt.Fprintf(w, "legal     %s\n", strings.Join(legal, ", "))
}
