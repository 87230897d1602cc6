package server

import (
	"errors"
	"fmt"
	"sync"
)

// DefaultWindow is how many of the latest states a signed server hands
// out stay playable, unless [Options] says otherwise: 2^24, a record of
// 2 MiB.
const DefaultWindow = 1 << 24

// MinWindow is the smallest window a server takes.
const MinWindow = 1 << 10

// The record's refusals of a state.
var (
	errUsed    = errors.New("this state has been played already: a state is good for one action, so carry on from the state of the last answer")
	errExpired = errors.New("this state is too old to play")
)

// record is the used-state record of a signed server. Each state the
// server hands out has a serial, counted from 0 in this run of the server;
// the record keeps one bit for each of the window latest serials, set
// when that state is played. A state is playable once, and only while its
// serial is within the window: its memory is window/8 bytes whatever the
// traffic, and nothing is ever evicted early or kept late.
type record struct {
	mu     sync.Mutex
	next   uint64   // the serial the next state gets
	window uint64   // a power of two, a multiple of 64
	bits   []uint64 // bit s%window: serial s, if next-window <= s < next, was played
}

// newRecord returns a record of window states, rounded up to a power of
// two of at least MinWindow.
func newRecord(window int) *record {
	w := uint64(MinWindow)
	for w < uint64(window) {
		w <<= 1
	}
	return &record{window: w, bits: make([]uint64, w/64)}
}

// issue returns the serial of a new state. The serial that leaves the
// window by it is forgotten: its bit is cleared for the new one.
func (r *record) issue() uint64 {
	r.mu.Lock()
	s := r.next
	r.next++
	i := s & (r.window - 1)
	r.bits[i/64] &^= 1 << (i % 64)
	r.mu.Unlock()
	return s
}

// check reports whether the state of serial s may be played: nil, or
// errUsed or errExpired, with what happened.
func (r *record) check(s uint64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.checkLocked(s)
}

func (r *record) checkLocked(s uint64) error {
	switch {
	case s >= r.next:
		// Only a sealed state carries a serial, and the server sealed it:
		// a serial not handed out yet is a broken server, not a client.
		return fmt.Errorf("serial %d has not been handed out", s)
	case r.next-s > r.window:
		return fmt.Errorf("%w: %d states have been handed out since (the server keeps the last %d playable)", errExpired, r.next-s-1, r.window)
	}
	i := s & (r.window - 1)
	if r.bits[i/64]&(1<<(i%64)) != 0 {
		return errUsed
	}
	return nil
}

// use marks the state of serial s played, or reports why it cannot be.
// Of two requests with one state, exactly one gets nil.
func (r *record) use(s uint64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.checkLocked(s); err != nil {
		return err
	}
	i := s & (r.window - 1)
	r.bits[i/64] |= 1 << (i % 64)
	return nil
}

// size returns the record's memory in bytes.
func (r *record) size() int { return len(r.bits) * 8 }
