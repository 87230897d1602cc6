package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/termview"
)

// playTerminal lets a person play the game g from seed at the terminal,
// then writes it as a replay to output (or a new file named after the
// seed).
func (c *cli) playTerminal(g *engine.Game, seed string, setup *engine.Setup, output string) int {
	p := g.Rules().Profile()
	in, outTerm, both := c.terminals()
	if !both {
		what := "stdin"
		if in != nil {
			what = "stdout"
		}
		return c.fail(exitBadUsage, "play: without --moves, play is a game for a person at a terminal, and %s is not one; give --moves LOG to play a move log", what)
	}
	// The file first, so that a bad -o fails before the game, not after;
	// an existing file is not truncated until there is a game to write.
	out, err := createReplayFile(output, p.Name, seed)
	if err != nil {
		return c.fail(exitBadUsage, "play: %v", err)
	}
	defer out.close()
	opts := termview.Options{Mode: termview.DetectMode(true, os.Getenv)}
	actions, interrupted, err := playKeys(in, outTerm, g, p, seed, opts)
	if err != nil {
		return c.fail(exitBadUsage, "play: %v", err)
	}
	if interrupted {
		fmt.Fprintln(c.stderr, "tileproof: play: interrupted by a signal; saving the game")
	}
	if len(actions) == 0 {
		fmt.Fprintln(c.stdout, "no move counted, so no replay is written")
		return exitOK
	}

	r := replay.Played(g, seed, actions)
	r.Setup = setup
	r.Source = "tileproof play (a person at a terminal)"
	_, err = out.Write(r.EncodeYAML(80))
	if cerr := out.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return c.fail(exitBadUsage, "play: %s: %v; the move log was %s", out.name, err, engine.FormatActions(actions)) // not empty: an empty game is not written
	}
	fmt.Fprintf(c.stdout, "score %d, max tile %d, %s (%s); the replay is in %s\n", r.Claim.Score, r.Claim.MaxTile, plural(r.Claim.Moves, "move"), g.Result(), safetext.Terminal(out.name))
	fmt.Fprintf(c.stdout, "check it with: %s\n", safetext.Terminal(verifyCommand(out.name)))
	return exitOK
}

// verifyCommand is the shell command that verifies the replay file name:
// a name that starts with a dash (-o -x.yaml, or -o - itself) is written
// ./-x.yaml, else verify would take it for a flag, or for stdin.
func verifyCommand(name string) string {
	if strings.HasPrefix(name, "-") {
		name = "./" + name
	}
	return safetext.Shell([]string{"tileproof", "verify", name})
}

// playKeys runs the game on the terminal in and out until the player
// quits, the game is over and a key is pressed, the input ends or a signal
// comes. It returns the actions that count, for the replay.
func playKeys(in, out *os.File, g *engine.Game, p *engine.Profile, seed string, opts termview.Options) (actions []engine.Action, interrupted bool, err error) {
	msg := ""
	var gained uint64
	interrupted, err = onTerminal(in, out, func() []string {
		return playLines(g, p, seed, opts, gained, msg, g.AwaitingKeep())
	}, func(k termview.Key) bool {
		asking := g.AwaitingKeep()
		msg, gained = "", 0
		if termview.IsQuit(k) || g.Over() && !asking {
			return false // game over: any key leaves
		}
		a, ok := termview.PlayAction(k)
		switch {
		case !ok:
			msg = fmt.Sprintf("%s: not a key of the game", k)
			return true
		case asking && a != engine.KeepPlaying:
			msg = "the run stopped at the win: k to keep playing, q to quit"
			return true
		}
		step, err := g.Do(a)
		_, isMove := a.Direction()
		switch {
		case errors.Is(err, engine.ErrUnsupported):
			msg = fmt.Sprintf("profile %s has no %s", p.Name, strings.ReplaceAll(a.String(), "-", " "))
		case err != nil:
			msg = err.Error()
		case isMove && !step.Changed:
			msg = fmt.Sprintf("moving %s changes nothing", a)
		default:
			gained = step.Gained
			actions = append(actions, a)
		}
		return true
	})
	return actions, interrupted, err
}

// playLines returns the screen of a game at the terminal.
func playLines(g *engine.Game, p *engine.Profile, seed string, opts termview.Options, gained uint64, msg string, asking bool) []string {
	lines := []string{fmt.Sprintf("tileproof play   profile %s   seed %q", p.Name, seed), ""}
	lines = append(lines, termview.Indent("    ", termview.Board(g.Board(), opts))...)
	score := fmt.Sprintf("score %d", g.Score())
	if gained > 0 {
		score += fmt.Sprintf(" (+%d)", gained)
	}
	lines = append(lines, "", fmt.Sprintf("%s   moves %d   max tile %d", score, g.Moves(), g.MaxTile()))
	switch {
	case asking:
		lines = append(lines, fmt.Sprintf("You made %d! k: keep playing, q: quit and save", p.Win.Tile))
	case g.Over():
		lines = append(lines, fmt.Sprintf("The run is over: %s. Press a key to save and leave.", g.Result()))
	case g.Won():
		lines = append(lines, "won")
	default:
		lines = append(lines, "")
	}
	lines = append(lines, msg)
	keys := []string{"arrows or WASD: move"}
	if p.Undo {
		keys = append(keys, "u, z: undo")
	}
	if p.EndRun {
		keys = append(keys, "e: end run")
	}
	keys = append(keys, "q: quit and save")
	return append(lines, strings.Join(keys, "   "))
}

// replayFile is the file a game played at the terminal, or recorded, goes
// to.
type replayFile struct {
	name    string
	f       *os.File
	created bool // by this run: removed when there is no game to write
	written bool // emptied and written to (Write)
}

// Write writes p to the file, emptying it at the first write: a file that
// was there stays as it was until there is a replay to write.
func (r *replayFile) Write(p []byte) (int, error) {
	if !r.written {
		r.written = true
		if err := r.f.Truncate(0); err != nil {
			return 0, err
		}
	}
	return r.f.Write(p)
}

// close closes the file, and removes it if this run created it and wrote
// nothing to it; a file that was there is left as it was.
func (r *replayFile) close() {
	r.f.Close()
	if r.created && !r.written {
		os.Remove(r.name)
	}
}

// createReplayFile opens the file a game is written to: output (created
// if need be, not truncated yet), or a new file in the current directory
// named after the profile and seed.
func createReplayFile(output, profile, seed string) (*replayFile, error) {
	if output != "" {
		created := false
		f, err := os.OpenFile(output, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			f, err = os.OpenFile(output, os.O_WRONLY, 0)
		} else {
			created = err == nil
		}
		if err != nil {
			return nil, err
		}
		return &replayFile{name: output, f: f, created: created}, nil
	}
	base := "tileproof-" + profile + "-" + fileSafe(seed)
	for i := 1; ; i++ {
		name := base + ".yaml"
		if i > 1 {
			name = fmt.Sprintf("%s-%d.yaml", base, i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) && i < 1000 {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &replayFile{name: name, f: f, created: true}, nil
	}
}

// fileSafe returns s with every character but ASCII letters, digits, "-"
// and "_" replaced by "_", at most 40 of them.
func fileSafe(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b[:min(len(b), 40)])
}
