package server

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/tileproof/tileproof/protocol"
)

// MinKeySize is the shortest key a server signs with: 32 bytes, the size
// of the AES-256 key derived from it.
const MinKeySize = 32

// The seal's refusals of a state.
var (
	errSeal     = errors.New("the seal does not match: this server did not hand out this state, or it was edited")
	errOtherRun = errors.New("this state was handed out before the server restarted, or by another server: start a new game")
	// errSealUnreadable is a sealed part that opened but does not read.
	errSealUnreadable error = sealUnreadable{}
)

// sealUnreadable is errSealUnreadable's type: errSeal, said more
// precisely.
type sealUnreadable struct{}

func (sealUnreadable) Error() string { return errSeal.Error() + " (the sealed part does not read)" }
func (sealUnreadable) Unwrap() error { return errSeal }

// sealInfo separates the seal's key from any other use of the same key.
const sealInfo = "tileproof serve: state seal, v1"

// sealHeader is the seal's clear part: the run's id and the serial.
const sealHeader = 16

// maxSecret is the largest secret: a version, flags, the game's ticket,
// the generator's state, the time the state was handed out and the hash
// of the game's think times, the generator's state to undo to, and a seed
// the server drew, with its length.
const maxSecret = minSecret + 8 + 1 + serverSeedLen

// minSecret is the smallest secret: a version, flags, the ticket, the
// generator's state, the time handed out and the times' hash.
const minSecret = 1 + 1 + 12 + 8 + 8 + timesHashLen

// maxSeal bounds the seal's text: the header, the largest secret and the
// tag, in base64 without padding (base64.RawURLEncoding.EncodedLen).
const maxSeal = ((sealHeader+maxSecret+16)*8 + 5) / 6

// sealer seals the secret part of the states of one run of a signed
// server: AES-256-GCM under a key derived (HKDF-SHA256) from the server's
// key and a random id of the run, so that a state of an earlier run,
// whose use the server no longer knows, fails to open. The nonce is the
// state's serial, which the record never hands out twice in a run.
type sealer struct {
	run  [8]byte
	aead cipher.AEAD
}

func newSealer(key []byte) (*sealer, error) {
	s := &sealer{}
	rand.Read(s.run[:])
	k, err := hkdf.Key(sha256.New, key, s.run[:], sealInfo, 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(k)
	if err != nil {
		return nil, err
	}
	if s.aead, err = cipher.NewGCM(block); err != nil {
		return nil, err
	}
	return s, nil
}

// secret is what the seal hides: the state's ticket in the live-game
// record, the generator's state, the generator's state of the state to
// undo to, and a seed the server drew, revealed at the end of the game.
type secret struct {
	t       ticket
	rng     uint64
	prevRNG uint64
	hasPrev bool
	seed    string // "" when the client chose the seed; else serverSeedLen bytes
	// handed is when the state was handed out (record.millis), chain the
	// hash of the game's think times up to it (times.go).
	handed uint64
	chain  [timesHashLen]byte
}

const secretVersion = 3

func (s *sealer) nonce(serial uint64) []byte {
	var n [12]byte
	binary.BigEndian.PutUint64(n[:8], serial)
	return n[:]
}

// seal returns the seal of a state: its secret, authenticated with the
// state's clear fields (visible, from appendVisible) and its serial.
func (s *sealer) seal(serial uint64, visible []byte, sec secret) string {
	var pt [maxSecret]byte
	p := append(pt[:0], secretVersion, 0)
	p = binary.BigEndian.AppendUint32(p, sec.t.slot)
	p = binary.BigEndian.AppendUint32(p, sec.t.gen)
	p = binary.BigEndian.AppendUint32(p, sec.t.step)
	p = binary.BigEndian.AppendUint64(p, sec.rng)
	p = binary.BigEndian.AppendUint64(p, sec.handed)
	p = append(p, sec.chain[:]...)
	if sec.hasPrev {
		p[1] |= 1
		p = binary.BigEndian.AppendUint64(p, sec.prevRNG)
	}
	if sec.seed != "" {
		p[1] |= 2
		p = append(p, byte(len(sec.seed)))
		p = append(p, sec.seed...)
	}
	var buf [sealHeader + len(pt) + 16]byte
	b := append(buf[:0], s.run[:]...)
	b = binary.BigEndian.AppendUint64(b, serial)
	b = s.aead.Seal(b, s.nonce(serial), p, visible)
	return base64.RawURLEncoding.EncodeToString(b)
}

// open checks a seal against the state's clear fields and returns its
// serial and secret.
func (s *sealer) open(seal string, visible []byte) (uint64, secret, error) {
	if len(seal) > maxSeal {
		return 0, secret{}, fmt.Errorf("%w (the seal is %d characters; a seal has at most %d)", errSeal, len(seal), maxSeal)
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(seal)
	if err != nil || len(b) < sealHeader+s.aead.Overhead() {
		return 0, secret{}, fmt.Errorf("%w (the seal is not one of this server's)", errSeal)
	}
	if !bytes.Equal(b[:8], s.run[:]) {
		return 0, secret{}, errOtherRun
	}
	serial := binary.BigEndian.Uint64(b[8:16])
	p, err := s.aead.Open(b[sealHeader:sealHeader], s.nonce(serial), b[sealHeader:], visible)
	if err != nil {
		return 0, secret{}, errSeal
	}
	// The server wrote what it opened, so a malformed secret is the
	// server's own bug: refuse it all the same.
	var sec secret
	bad := errSealUnreadable
	if len(p) < minSecret || p[0] != secretVersion || p[1]&^3 != 0 {
		return 0, secret{}, bad
	}
	flags := p[1]
	sec.t = ticket{binary.BigEndian.Uint32(p[2:6]), binary.BigEndian.Uint32(p[6:10]), binary.BigEndian.Uint32(p[10:14])}
	sec.rng = binary.BigEndian.Uint64(p[14:22])
	sec.handed = binary.BigEndian.Uint64(p[22:30])
	copy(sec.chain[:], p[30:minSecret])
	p = p[minSecret:]
	if flags&1 != 0 {
		if len(p) < 8 {
			return 0, secret{}, bad
		}
		sec.hasPrev, sec.prevRNG, p = true, binary.BigEndian.Uint64(p[:8]), p[8:]
	}
	if flags&2 != 0 {
		if len(p) != 1+serverSeedLen || p[0] != serverSeedLen {
			return 0, secret{}, bad
		}
		sec.seed, p = string(p[1:]), nil
	}
	if len(p) != 0 {
		return 0, secret{}, bad
	}
	return serial, sec, nil
}

// appendVisible appends the clear fields of a state and of its state to
// undo to, unambiguously: what the seal authenticates. rng and seal are
// not among them (a signed server's states have no rng in the clear).
func appendVisible(b []byte, ws *protocol.GameState) []byte {
	str := func(b []byte, s string) []byte { return append(binary.AppendUvarint(b, uint64(len(s))), s...) }
	for depth := 0; ws != nil && depth < 2; depth++ {
		b = append(b, 1)
		b = str(b, ws.Format)
		b = str(b, ws.Game)
		b = binary.AppendVarint(b, int64(ws.Rules))
		b = binary.AppendUvarint(b, uint64(len(ws.Board)))
		for _, row := range ws.Board {
			b = binary.AppendUvarint(b, uint64(len(row)))
			for _, v := range row {
				b = binary.AppendUvarint(b, v)
			}
		}
		b = binary.AppendUvarint(b, ws.Score)
		b = binary.AppendVarint(b, int64(ws.Moves))
		var flags byte
		if ws.Won {
			flags |= 1
		}
		if ws.KeepPlaying {
			flags |= 2
		}
		b = append(b, flags)
		b = str(b, ws.Result)
		ws = ws.Prev
	}
	return append(b, 0)
}
