package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/strictyaml"
	"github.com/tileproof/tileproof/protocol"
)

// MaxMoves is the largest move count a state may carry: 2^53-1, the
// largest integer every JSON reader reads exactly, or where int has 32
// bits (386, arm) 2^31-1 (engine.MaxMoves). The rules refuse a move past
// it as overflow (engine.ErrMovesOverflow).
const MaxMoves = engine.MaxMoves

// serverSeedLen is the length of the seeds a signed server draws: 32
// hex digits, 128 bits.
const serverSeedLen = 32

// drawSeed returns a new random seed of serverSeedLen hex digits.
func drawSeed() string {
	var b [serverSeedLen / 2]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// wire converts a game's state to the wire form: the generator in the
// clear on an unsigned server, sealed on a signed one, with seed (the
// seed the server drew, or "") and the state's ticket t in the live-game
// record and the game's think times (tm) among the secrets.
func (s *Server) wire(name string, g *engine.Game, seed string, t ticket, tm timing) *protocol.GameState {
	st, inClear := g.State(), s.sealer == nil
	ws := wireOne(name, g.Rules(), st, inClear)
	if st.Prev != nil {
		ws.Prev = wireOne(name, g.Rules(), *st.Prev, inClear)
	}
	if inClear {
		return ws
	}
	// A signed server's games are all seeded: it loads no state.
	sec := secret{t: t, rng: st.RNG.State(), seed: seed, handed: tm.handed, chain: tm.chain}
	if sec.handed == 0 {
		sec.handed = s.record.millis() // handed out now
	}
	if st.Prev != nil {
		sec.hasPrev, sec.prevRNG = true, st.Prev.RNG.State()
	}
	var buf [256]byte
	ws.Seal = s.sealer.seal(s.record.nonce(), appendVisible(buf[:0], ws), sec)
	return ws
}

// wireOne is the wire form of one state, its generator in the clear when
// inClear is set (an unsigned server) and it has one.
func wireOne(name string, rules *engine.Rules, st engine.State, inClear bool) *protocol.GameState {
	res, _ := st.Result.MarshalText()
	ws := &protocol.GameState{Format: protocol.StateFormat, Game: name, Rules: rules.Version(), Board: st.Board.Values(), Score: st.Score,
		Moves: st.Moves, Won: st.Won, KeepPlaying: st.KeepPlaying, Result: string(res)}
	if inClear && st.RNG != nil {
		ws.RNG = fmt.Sprintf("%016x", st.RNG.State())
	}
	return ws
}

// unwire checks a client's state and converts it to an engine state. sec
// is the opened seal of a signed server's state, nil on an unsigned
// server, where the generator is in the clear.
func (s *Server) unwire(name string, rules *engine.Rules, ws *protocol.GameState, sec *secret) (engine.State, error) {
	st, err := unwireOne(name, rules, ws)
	if err != nil {
		return engine.State{}, err
	}
	switch {
	case sec == nil && ws.Seal != "":
		return engine.State{}, errors.New("a seal, on a server that seals nothing: this server signs no state")
	case ws.Prev != nil && ws.Prev.Seal != "":
		return engine.State{}, errors.New("prev: a seal; only the state itself carries one")
	}
	if ws.Prev != nil {
		if ws.Prev.Prev != nil {
			return engine.State{}, errors.New("prev has a prev of its own")
		}
		prev, err := unwireOne(name, rules, ws.Prev)
		if err != nil {
			return engine.State{}, fmt.Errorf("prev: %w", err)
		}
		st.Prev = &prev
	}
	if sec == nil {
		if st.RNG, err = parseRNG(ws.RNG); err != nil {
			return engine.State{}, err
		}
		if st.Prev != nil {
			if st.Prev.RNG, err = parseRNG(ws.Prev.RNG); err != nil {
				return engine.State{}, fmt.Errorf("prev: %w", err)
			}
		}
		return st, nil
	}
	if ws.RNG != "" || ws.Prev != nil && ws.Prev.RNG != "" {
		return engine.State{}, errors.New("rng in a signed server's state: its generator is sealed")
	}
	if (st.Prev != nil) != sec.hasPrev {
		return engine.State{}, errSeal // sealed by this server, so never so
	}
	rng := engine.RNGFromState(sec.rng)
	st.RNG = &rng
	if st.Prev != nil {
		prng := engine.RNGFromState(sec.prevRNG)
		st.Prev.RNG = &prng
	}
	return st, nil
}

// unwireOne checks and converts the clear fields of one state.
func unwireOne(name string, rules *engine.Rules, ws *protocol.GameState) (engine.State, error) {
	switch {
	case ws.Format != protocol.StateFormat:
		return engine.State{}, fmt.Errorf("format %s; this server reads %q", strictyaml.Quote(ws.Format, maxQuoted), protocol.StateFormat)
	case ws.Game != name:
		return engine.State{}, fmt.Errorf("a state of game %s sent to game %q", strictyaml.Quote(ws.Game, maxQuoted), name)
	case ws.Rules != rules.Version():
		return engine.State{}, fmt.Errorf("rules version %d; game %s is at version %d", ws.Rules, name, rules.Version())
	case ws.Moves < 0 || int64(ws.Moves) > MaxMoves:
		return engine.State{}, fmt.Errorf("move count %d is not from 0 to 2^53-1", ws.Moves)
	}
	b, err := engine.BoardFromValues(ws.Board)
	if err != nil {
		return engine.State{}, err
	}
	var result engine.Result
	if err := result.UnmarshalText([]byte(ws.Result)); err != nil {
		return engine.State{}, fmt.Errorf("result %s is not playing, target-reached, no-moves, move-limit or run-finished", strictyaml.Quote(ws.Result, maxQuoted))
	}
	return engine.State{Board: b, Score: ws.Score, Moves: ws.Moves, Won: ws.Won, KeepPlaying: ws.KeepPlaying, Result: result}, nil
}

// parseRNG reads a generator in the clear: "" (none: every spawn must be
// given) or 16 hex digits.
func parseRNG(s string) (*engine.RNG, error) {
	if s == "" {
		return nil, nil
	}
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil || len(s) != 16 {
		return nil, fmt.Errorf("rng %s is not 16 hex digits", strictyaml.Quote(s, maxQuoted))
	}
	rng := engine.RNGFromState(v)
	return &rng, nil
}
