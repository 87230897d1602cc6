package analyze

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tileproof/tileproof/peer/hallabois"
	"github.com/tileproof/tileproof/replay"
)

// humanDir returns the folder of hallabois's recordings:
// $TILEPROOF_HALLABOIS_DIR, or ../shared/hallabois beside the module;
// without it the test skips, unless TILEPROOF_HALLABOIS=required.
func humanDir(t testing.TB) string {
	dir := os.Getenv("TILEPROOF_HALLABOIS_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "hallabois")
	}
	if _, err := os.Stat(filepath.Join(dir, "v1")); err != nil {
		if os.Getenv("TILEPROOF_HALLABOIS") == "required" {
			t.Fatalf("the recordings are not at %s (TILEPROOF_HALLABOIS=required): %v", dir, err)
		}
		t.Skipf("the recordings are not at %s; set TILEPROOF_HALLABOIS_DIR (TILEPROOF_HALLABOIS=required makes this a failure)", dir)
	}
	return dir
}

// humanGame is one recording, imported.
type humanGame struct {
	name string
	r    *replay.Replay
}

func humanGames(t testing.TB) []humanGame {
	dir := humanDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "v[12]", "*.txt"))
	if len(files) != 10 {
		t.Fatalf("%d recordings in %s, want the ten", len(files), dir)
	}
	var out []humanGame
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := hallabois.Parse(f, data)
		if err != nil {
			t.Fatal(err)
		}
		imp, err := hallabois.Convert(f, rec)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, humanGame{filepath.Base(f), imp.Replay})
	}
	return out
}

// TestHumanRecordings places each of the ten recordings against the
// built-in reference without itself (leave one out): none is flagged.
// It also checks that the reference's figures are those the analysis
// computes from the recordings today.
func TestHumanRecordings(t *testing.T) {
	ref := mustBuiltin(t)
	byHash := map[string]ReferenceGame{}
	for _, g := range ref.Games {
		byHash[g.SHA256] = g
	}
	matched := map[string]bool{}
	for _, h := range humanGames(t) {
		rep, err := Analyze(context.Background(), replay.NewVerifier(), h.name, h.r, Options{Clairvoyance: true, Reference: ref})
		if errors.Is(err, ErrNotAnalysable) {
			t.Logf("%s: %v", h.name, err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if g, ok := byHash[rep.SHA256]; ok {
			matched[rep.SHA256] = true
			for _, s := range rep.Evaluators {
				id := s.Evaluator
				if g.NonTrivial != rep.NonTrivial || g.Agree[id] != s.Agree || g.Large[id] != s.Large || g.Second[id] != s.Second {
					t.Errorf("%s: %s agrees on %d of %d moves, %d large errors, %d second-best; the reference says %d of %d, %d, %d: rebuild it (docs/analyze.md)",
						h.name, id, s.Agree, rep.NonTrivial, s.Large, s.Second, g.Agree[id], g.NonTrivial, g.Large[id], g.Second[id])
				}
			}
		}
		loo := ref.Without(rep.SHA256)
		loo.place(rep)
		t.Logf("%s: %s, score %.2f, %d non-trivial moves", h.name, rep.Band, rep.Score, rep.NonTrivial)
		for _, s := range rep.Evaluators {
			miss := rep.NonTrivial - s.Agree
			near := 0.0
			if miss > 0 {
				near = float64(miss-s.Large) / float64(miss)
			}
			t.Logf("  %s: agreement %.1f%%, near misses %.0f%% of %d misses, misses on crowded boards %.1f%%, on open ones %.1f%%",
				s.Evaluator, 100*s.Agreement, 100*near, miss, 100*s.CrowdedMiss, 100*s.OpenMiss)
		}
		if rep.Band == Review || rep.Band == Strong {
			t.Errorf("%s flagged: %s", h.name, rep.Statement)
		}
	}
	if len(matched) != len(ref.Games) {
		t.Errorf("%d of the reference's %d games found among the recordings", len(matched), len(ref.Games))
	}
}
