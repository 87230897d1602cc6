package server

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/protocol"
)

func testState() *protocol.GameState {
	return &protocol.GameState{Format: protocol.StateFormat, Game: "online-2048", Rules: 1, Result: "playing", Score: 8, Moves: 3,
		Board: [][]uint64{{2, 8, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 2}},
		Prev:  &protocol.GameState{Format: protocol.StateFormat, Game: "online-2048", Rules: 1, Result: "playing", Score: 0, Moves: 2, Board: [][]uint64{{2, 4, 4, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}}}
}

// TestSealRoundTrip: what a seal hides comes back out, bound to the clear
// fields: a change to any of them fails to open.
func TestSealRoundTrip(t *testing.T) {
	s, err := newSealer([]byte(testKey))
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range []secret{{rng: 1}, {rng: 1<<64 - 1, hasPrev: true, prevRNG: 42}, {rng: 7, seed: strings.Repeat("f", serverSeedLen)}} {
		ws := testState()
		seal := s.seal(99, appendVisible(nil, ws), sec)
		if len(seal) > maxSeal {
			t.Errorf("a seal of %d characters, above maxSeal %d", len(seal), maxSeal)
		}
		serial, got, err := s.open(seal, appendVisible(nil, ws))
		if err != nil || serial != 99 || got != sec {
			t.Errorf("%+v: opened %d %+v %v", sec, serial, got, err)
		}
		for name, edit := range map[string]func(*protocol.GameState){
			"format":     func(w *protocol.GameState) { w.Format = "tileproof/2" },
			"game":       func(w *protocol.GameState) { w.Game = "classic" },
			"rules":      func(w *protocol.GameState) { w.Rules = 2 },
			"a cell":     func(w *protocol.GameState) { w.Board[3][3] = 4 },
			"a row":      func(w *protocol.GameState) { w.Board[0] = append(w.Board[0], 0) },
			"score":      func(w *protocol.GameState) { w.Score++ },
			"moves":      func(w *protocol.GameState) { w.Moves++ },
			"won":        func(w *protocol.GameState) { w.Won = true },
			"keep":       func(w *protocol.GameState) { w.KeepPlaying = true },
			"result":     func(w *protocol.GameState) { w.Result = "run-finished" },
			"no prev":    func(w *protocol.GameState) { w.Prev = nil },
			"prev cell":  func(w *protocol.GameState) { w.Prev.Board[0][0] = 4 },
			"prev score": func(w *protocol.GameState) { w.Prev.Score = 4 },
		} {
			w := testState()
			edit(w)
			if _, _, err := s.open(seal, appendVisible(nil, w)); err != errSeal {
				t.Errorf("%+v: edited %s: %v", sec, name, err)
			}
		}
	}
}

// FuzzOpenSeal: any text and clear fields either open as the seal the
// server made for them, or fail; never a panic, never a forgery.
func FuzzOpenSeal(f *testing.F) {
	s, err := newSealer([]byte(testKey))
	if err != nil {
		f.Fatal(err)
	}
	visible := appendVisible(nil, testState())
	real := s.seal(5, visible, secret{rng: 3, hasPrev: true, prevRNG: 4, seed: strings.Repeat("0", serverSeedLen)})
	f.Add(real, visible)
	f.Add(real[:len(real)-1], visible)
	f.Add("", []byte{})
	f.Add(strings.Repeat("A", maxSeal+1), visible)
	f.Fuzz(func(t *testing.T, seal string, vis []byte) {
		serial, sec, err := s.open(seal, vis)
		if err == nil && (seal != real || string(vis) != string(visible) || serial != 5 || sec.rng != 3) {
			t.Fatalf("opened a seal the server did not make: %q %q -> %d %+v", seal, vis, serial, sec)
		}
	})
}

// TestSealErrors holds maxSeal and errSealUnreadable, declared without
// work at start, to what they stand for.
func TestSealErrors(t *testing.T) {
	if want := base64.RawURLEncoding.EncodedLen(sealHeader + maxSecret + 16); maxSeal != want {
		t.Errorf("maxSeal = %d, want %d", maxSeal, want)
	}
	want := fmt.Errorf("%w (the sealed part does not read)", errSeal)
	if errSealUnreadable.Error() != want.Error() || !errors.Is(errSealUnreadable, errSeal) {
		t.Errorf("errSealUnreadable = %q, is errSeal %v; want %q, true", errSealUnreadable, errors.Is(errSealUnreadable, errSeal), want)
	}
}
