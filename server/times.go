package server

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// A signed server measures each action's think time: the time from
// handing out the state played to receiving the action, in milliseconds.
// It keeps nothing of a game for it: the seal carries when its state was
// handed out and a hash chained through the game's actions and times so
// far, and each answer gives the action's time (thinkMs) and a MAC of the
// chain (timesSeal), which a replay carries with its times. The operator,
// who holds the key, checks them with [CheckTimes]. docs/api.md, "Think
// times", and docs/security.md say what they prove.

// timesHashLen is the length of the chained hash of a game's times.
const timesHashLen = sha256.Size

// timesInfo separates the times' MAC key from any other use of the key.
// Unlike the seal's key it does not depend on the run: the operator
// checks a game's times after the server has restarted.
const timesInfo = "tileproof serve: think times, v1"

// timesKey derives the key of the times' MAC from the server's key.
func timesKey(key []byte) ([]byte, error) {
	return hkdf.Key(sha256.New, key, nil, timesInfo, 32)
}

// chainStart is the hash of a game's times before its first action: the
// game's name and seed (the seed as init took it, or as the server drew
// it), each with its length.
func chainStart(game, seed string) [timesHashLen]byte {
	b := []byte("tileproof think times v1\x00")
	b = binary.AppendUvarint(b, uint64(len(game)))
	b = append(b, game...)
	b = binary.AppendUvarint(b, uint64(len(seed)))
	b = append(b, seed...)
	return sha256.Sum256(b)
}

// chainNext is the hash of a game's times after one more action: its
// letter in a move log and its think time.
func chainNext(c [timesHashLen]byte, letter byte, ms uint32) [timesHashLen]byte {
	var b [timesHashLen + 1 + 4]byte
	copy(b[:], c[:])
	b[timesHashLen] = letter
	binary.BigEndian.PutUint32(b[timesHashLen+1:], ms)
	return sha256.Sum256(b[:])
}

// timesSeal is the MAC of a chain under the times' key: "hmac-sha256:"
// and 64 lower-case hex digits, as a replay's timesSeal has it.
func timesSeal(key []byte, c [timesHashLen]byte) string {
	m := hmac.New(sha256.New, key)
	m.Write(c[:])
	return "hmac-sha256:" + hex.EncodeToString(m.Sum(nil))
}

// thinkMillis is the think time from handed (record.millis) to now,
// bounded by replay.MaxThinkTime.
func thinkMillis(handed, now uint64) uint32 {
	if now <= handed {
		return 0
	}
	return uint32(min(now-handed, replay.MaxThinkTime))
}

// actionLetter returns the move log's letter of an action the server
// played ("observe" has none: it is not in a game's log).
func actionLetter(typ, dir string) (byte, bool) {
	switch typ {
	case "move":
		if d, ok := direction(dir); ok {
			return engine.Action(d).Letter(), true
		}
	case "undo":
		return engine.Undo.Letter(), true
	case "end-run":
		return engine.EndRun.Letter(), true
	case "keep-playing":
		return engine.KeepPlaying.Letter(), true
	}
	return 0, false
}

// The refusals of CheckTimes.
var (
	// ErrNoTimes is a replay without times or without a times seal.
	ErrNoTimes = errors.New("the replay has no times, or no times seal")
	// ErrTimesForged is a times seal that is not the MAC of the replay's
	// game and times under the key.
	ErrTimesForged = errors.New("the times seal does not match: these are not the times a server with this key measured for this game")
	// ErrTimesNotSeeded is a spawn-recorded replay: no signed server
	// dealt it.
	ErrTimesNotSeeded = errors.New("the replay has no seed: a signed server's games are seeded")
)

// CheckTimes reports whether replay r's times are those a signed server
// with key measured for its game: nil when its timesSeal is the MAC of
// the chain of its profile (the game's name on the server), its seed, and
// each action's letter and time. It checks nothing else of the replay
// (verify it as any other).
func CheckTimes(key []byte, r *replay.Replay) error {
	switch {
	case r.Times == nil || r.TimesSeal == "":
		return ErrNoTimes
	case r.Seed == nil:
		return ErrTimesNotSeeded
	case len(r.Times) != len(r.Actions):
		return fmt.Errorf("%w (%d times for %d actions)", ErrTimesForged, len(r.Times), len(r.Actions))
	}
	k, err := timesKey(key)
	if err != nil {
		return err
	}
	c := chainStart(r.Profile, *r.Seed)
	for i, a := range r.Actions {
		c = chainNext(c, a.Letter(), r.Times[i])
	}
	if !hmac.Equal([]byte(timesSeal(k, c)), []byte(r.TimesSeal)) {
		return ErrTimesForged
	}
	return nil
}
