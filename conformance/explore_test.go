package conformance_test

import (
	"bytes"
	"cmp"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/conformance/driver"
	"github.com/tileproof/tileproof/conformance/internal/adaptertest"
)

// adapter returns the exec driver of the reference adapter run with args.
func adapter(t testing.TB, args ...string) *driver.Exec {
	var stderr bytes.Buffer
	return &driver.Exec{Command: adaptertest.Command(t, args...), Stderr: &stderr}
}

// TestExploreBuiltin: the engine against itself finds nothing, in every
// profile, seeded and forced alike.
func TestExploreBuiltin(t *testing.T) {
	rep, err := conformance.Explore(t.Context(), &conformance.Builtin{}, conformance.ExploreOptions{Games: 40, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Divergences) != 0 || rep.Games != 40 || rep.Mode != conformance.Seeded || len(rep.Profiles) < 5 {
		t.Fatalf("games %d, mode %s, profiles %v, divergences %+v", rep.Games, rep.Mode, rep.Profiles, rep.Divergences)
	}
	if rep.Steps < 40*50 { // a random game lasts a hundred moves or more
		t.Errorf("%d steps compared in 40 games", rep.Steps)
	}
}

// TestExploreReferenceAdapter: the reference adapter finds nothing either,
// seeded and with forced spawns.
func TestExploreReferenceAdapter(t *testing.T) {
	t.Parallel() // beside the mutants' runs: each waits for its process
	for _, features := range []string{"seed-tp1", "load-state,force-spawn"} {
		impl := adapter(t, "--features", features)
		rep, err := conformance.Explore(t.Context(), impl, conformance.ExploreOptions{Games: 15, Seed: 1})
		impl.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"seed-tp1": conformance.Seeded, "load-state,force-spawn": conformance.Forced}[features]
		if len(rep.Divergences) != 0 || rep.Mode != want || rep.Steps < 15*50 {
			t.Errorf("%s: mode %s, %d steps, divergences %+v", features, rep.Mode, rep.Steps, rep.Divergences)
		}
	}
}

// TestExploreDeterministic: the same seed plays the same games.
func TestExploreDeterministic(t *testing.T) {
	a, _ := conformance.Explore(t.Context(), &conformance.Builtin{}, conformance.ExploreOptions{Games: 5, Seed: 3})
	b, _ := conformance.Explore(t.Context(), &conformance.Builtin{}, conformance.ExploreOptions{Games: 5, Seed: 3})
	c, _ := conformance.Explore(t.Context(), &conformance.Builtin{}, conformance.ExploreOptions{Games: 5, Seed: 4})
	if a.Steps != b.Steps || a.Steps == c.Steps {
		t.Errorf("steps: seed 3 %d and %d, seed 4 %d", a.Steps, b.Steps, c.Steps)
	}
}

// TestExploreMutants plays mutants of the reference adapter: exploration
// must find each, and shrink it to a small case that passes against the
// engine (lint accepts it), fails against the mutant with the normal
// runner, with the kind of the divergence found.
func TestExploreMutants(t *testing.T) {
	t.Parallel() // its runs beside TestExploreReferenceAdapter's
	tests := []struct {
		mutant, features string
		kind             conformance.Status
		maxSteps         int    // of the shrunk case
		maxTiles         int    // on its start board (a loaded start)
		profile          string // default classic
		games            int    // default 10
	}{
		{"greedy-double-merge", "", conformance.BoardDiverged, 1, 4, "", 0},
		{"merge-priority-reversed", "", conformance.BoardDiverged, 1, 4, "", 0},
		{"score-both-tiles", "", conformance.ScoreDiverged, 1, 4, "", 0},
		{"game-over-when-full", "", conformance.FlagsDiffer, 1, 15, "", 0},
		{"spawn-after-noop", "load-state,force-spawn", conformance.SpawnWrong, 1, 1, "", 0},
		{"legal-actions-include-noop", "load-state,force-spawn", conformance.LegalityDiffer, 1, 1, "", 0},
		// Only seeded: the move sequence is shrunk from a fresh game.
		{"spawn-on-occupied", "seed-tp1", conformance.BoardDiverged, 1, 0, "", 0},
		{"illegal-move-counted", "seed-tp1", conformance.LegalityDiffer, 2, 0, "", 0},
		{"merge-priority-reversed", "seed-tp1", conformance.BoardDiverged, 8, 0, "", 0},
		// Found from the late boards: the win and the end are out of
		// reach of random play from an empty board.
		{"win-at-1024", "", conformance.FlagsDiffer, 1, 2, "", 0},
		{"win-does-not-stop", "", conformance.FlagsDiffer, 1, 2, "", 0},
		{"finish-order-swapped", "", conformance.FlagsDiffer, 1, 16, "online-2048", 40},
		// Undo, End run and keep playing, played among the moves.
		{"undo-twice", "", conformance.IllegalHandled, 4, 2, "online-2048", 40},
		{"undo-does-not-restore-spawn", "", conformance.BoardDiverged, 4, 0, "online-2048", 40},
		{"end-run-wrong-result", "", conformance.FlagsDiffer, 1, 2, "online-2048", 40},
		{"keep-playing-clears-won", "", conformance.FlagsDiffer, 1, 2, "", 40},
	}
	for _, tt := range tests {
		t.Run(tt.mutant+"/"+cmp.Or(tt.features, "all"), func(t *testing.T) {
			t.Parallel() // each mostly waits for its adapter process
			args := []string{"--mutant", tt.mutant}
			if tt.features != "" {
				args = append(args, "--features", tt.features)
			}
			impl := adapter(t, args...)
			defer impl.Close()
			profile := cmp.Or(tt.profile, "classic")
			rep, err := conformance.Explore(t.Context(), impl, conformance.ExploreOptions{Games: max(tt.games, 10), Seed: conformance.DefaultSeed, Profiles: []string{profile}, Impl: "exec:adapter " + strings.Join(args, " ")})
			if err != nil {
				t.Fatal(err)
			}
			kinds := rep.Kinds()
			if kinds[tt.kind] == 0 {
				t.Fatalf("divergences %v, want %s", kinds, tt.kind)
			}
			var fc *conformance.FoundCase
			for _, d := range rep.Divergences {
				if d.Result.Status == tt.kind && d.Found != nil {
					fc = d.Found
				}
			}
			if fc == nil || !fc.Reproduced {
				t.Fatalf("no shrunk case of kind %s: %+v", tt.kind, fc)
			}
			loaded := fc.Case.Start.Board != nil
			if loaded != (tt.maxTiles > 0) || fc.Moves > tt.maxSteps || fc.Tiles > tt.maxTiles {
				t.Errorf("shrunk to %d steps, %d tiles (a loaded start %v); want at most %d steps, %d tiles\n%s", fc.Moves, fc.Tiles, loaded, tt.maxSteps, tt.maxTiles, fc.YAML)
			}
			if !strings.Contains(string(fc.YAML), "found by tileproof conform --explore against exec:adapter --mutant "+tt.mutant) ||
				!strings.Contains(string(fc.YAML), "(tileproof-reference-adapter 1.0.0+"+tt.mutant+"), seed 2048, shrunk from game ") {
				t.Errorf("the source does not name the implementation and the game:\n%s", fc.YAML)
			}

			// Written out, the folder is a pack the linter accepts.
			dir := t.TempDir()
			files, err := rep.WriteCases(dir)
			if err != nil || len(files) != len(rep.Kinds()) {
				t.Fatalf("wrote %v, %v", files, err)
			}
			pack, err := conformance.LoadPack(os.DirFS(dir))
			if err != nil {
				t.Fatal(err)
			}
			if problems := conformance.Lint(pack); len(problems) > 0 {
				t.Fatalf("lint: %s", strings.Join(problems, "\n"))
			}
			// And the normal runner fails the mutant on it, with the kind.
			rr, err := conformance.Run(t.Context(), pack, impl, conformance.Options{Profiles: []string{profile}})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, r := range rr.Results {
				if r.Case == "explore/"+fc.ID {
					found = true
					if r.Status != tt.kind {
						t.Errorf("the runner gives %s on %s, want %s", r.Status, r.Case, tt.kind)
					}
				} else if !r.Status.Failed() {
					t.Errorf("%s passes against the mutant", r.Case)
				}
			}
			if !found {
				t.Errorf("the runner did not run %s", fc.ID)
			}
			t.Logf("%s: shrunk in %d runs to\n%s", tt.mutant, fc.Runs, fc.YAML)
		})
	}
}

// TestExploreUsage: an implementation exploration cannot follow, a
// profile not declared, no games.
func TestExploreUsage(t *testing.T) {
	impl := adapter(t, "--features", "load-state,undo")
	defer impl.Close()
	_, err := conformance.Explore(t.Context(), impl, conformance.ExploreOptions{Games: 1})
	var unsupported *conformance.UnsupportedError
	if !errors.As(err, &unsupported) || !strings.Contains(err.Error(), "lacks force-spawn, seed-tp1") {
		t.Errorf("an adapter with load-state only: %v", err)
	}
	if _, err := conformance.Explore(t.Context(), &conformance.Builtin{}, conformance.ExploreOptions{Games: 1, Profiles: []string{"chess"}}); err == nil || !strings.Contains(err.Error(), `does not declare profile "chess"`) {
		t.Errorf("profile chess: %v", err)
	}
	if _, err := conformance.Explore(t.Context(), &conformance.Builtin{}, conformance.ExploreOptions{Games: 0}); err == nil {
		t.Error("0 games explored")
	}
}

// TestWriteCasesKeepsPack: a pack.yaml already there (writing into the
// repository's cases/, say) is left alone.
func TestWriteCasesKeepsPack(t *testing.T) {
	impl := adapter(t, "--mutant", "score-both-tiles")
	defer impl.Close()
	rep, err := conformance.Explore(t.Context(), impl, conformance.ExploreOptions{Games: 1, Profiles: []string{"tile-merge"}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pack := filepath.Join(dir, "pack.yaml")
	os.WriteFile(pack, []byte("name: mine\n"), 0o666)
	files, err := rep.WriteCases(dir)
	if err != nil || len(files) != 1 || !strings.HasPrefix(files[0], filepath.Join(dir, "explore", "explore-tile-merge-score-diverged-")) {
		t.Fatalf("files %v, %v", files, err)
	}
	if data, _ := os.ReadFile(pack); string(data) != "name: mine\n" {
		t.Errorf("pack.yaml was overwritten: %q", data)
	}
}

// BenchmarkExplore measures the exploration speed against the reference
// adapter over the exec protocol: steps compared a second.
func BenchmarkExplore(b *testing.B) {
	impl := &driver.Exec{Command: adaptertest.Command(b)}
	defer impl.Close()
	steps := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := conformance.Explore(b.Context(), impl, conformance.ExploreOptions{Games: 5, Seed: uint64(i), Profiles: []string{"classic"}})
		if err != nil || len(rep.Divergences) > 0 {
			b.Fatal(err, rep.Divergences)
		}
		steps += rep.Steps
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}
