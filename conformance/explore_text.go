package conformance

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tileproof/tileproof/internal/safetext"
)

// WriteText writes the run's summary: each kind's first divergence with
// its shrunk case (the case's YAML itself when it was not written to a
// file), then the games, the steps, the divergences by kind and the case
// files. The implementation's name and messages are shown as
// safetext shows them on a terminal (\x1b).
func (r *Exploration) WriteText(w io.Writer) {
	how := "its own tp1 spawns, from a seed a game"
	if r.Mode == Forced {
		how = "the engine's start loaded and every spawn forced"
	}
	if r.LateGames > 0 {
		how += "; every other game from a late board, loaded, the spawns forced"
	}
	fmt.Fprintf(w, "exploring %s %s under %s: %s\n", safetext.Terminal(r.Impl.Name), safetext.Terminal(r.Impl.Version), safetext.Terminal(strings.Join(r.Profiles, ", ")), how)
	for _, d := range r.Divergences {
		if d.Found == nil {
			continue
		}
		where := fmt.Sprintf("move %d", d.Move)
		if d.Move == 0 {
			where = "the start"
		}
		fmt.Fprintf(w, "DIVERGENCE  game %d [%s] %s: %s: %s\n", d.Game, safetext.Terminal(d.Profile), where, d.Result.Status, safetext.TerminalLines(d.Result.explain("    ")))
		fc := d.Found
		state := "shrunk"
		if !fc.Reproduced {
			state = "NOT reproduced alone; written unshrunk"
		}
		fmt.Fprintf(w, "  %s (%d case runs) to %s: %s\n", state, fc.Runs, fc.size(), safetext.Terminal(cmp.Or(fc.File, fc.ID+" (not written: --explore-out DIR writes it)")))
		if fc.File == "" { // the case itself, to copy: nothing was written
			yaml := strings.TrimRight(safetext.TerminalLines(string(fc.YAML)), "\n")
			fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(yaml, "\n", "\n    "))
		}
		if fc.Reproduced {
			fmt.Fprintf(w, "  the case fails against the implementation: %s at step %d: %s\n", fc.Result.Status, fc.Result.Step, safetext.TerminalLines(fc.Result.explain("    ")))
		}
	}
	writeTally(w, r.Seed, r.Games, r.LateGames, r.Stopped, r.Steps, r.Playing)
	kinds := r.Kinds()
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, kinds[k]))
	}
	if len(parts) == 0 {
		parts = []string{"none"}
	}
	fmt.Fprintf(w, "divergences       %d: %s\n", len(r.Divergences), strings.Join(parts, ", "))
	var files []string
	for _, d := range r.Divergences {
		if d.Found != nil && d.Found.File != "" {
			files = append(files, d.Found.File)
		}
	}
	if len(files) > 0 {
		fmt.Fprintf(w, "cases written     %s\n", safetext.Terminal(strings.Join(files, " ")))
	}
}

// writeTally writes what an exploration's and an observation's summaries
// share: the seed, the games played (late of them from a late board), why
// the run stopped early, and the steps compared.
func writeTally(w io.Writer, seed uint64, games, late int, stopped string, steps int, playing time.Duration) {
	rate := 0.0
	if s := playing.Seconds(); s > 0 {
		rate = float64(steps) / s
	}
	fmt.Fprintf(w, "seed              %d\ngames played      %d", seed, games)
	if late > 0 {
		fmt.Fprintf(w, " (%d from a late board)", late)
	}
	fmt.Fprintln(w)
	if stopped != "" {
		fmt.Fprintf(w, "STOPPED           %s: the games after it not played\n", safetext.Terminal(stopped))
	}
	fmt.Fprintf(w, "steps compared    %d (%.0f a second)\n", steps, rate)
}

// size says how large the case is: its steps, and what it starts from.
func (fc *FoundCase) size() string {
	if fc.Case.Start.Board == nil {
		return count(fc.Moves, "step", "steps") + " from the game's seed"
	}
	return fmt.Sprintf("%s from a board of %s", count(fc.Moves, "step", "steps"), count(fc.Tiles, "tile", "tiles"))
}
