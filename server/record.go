package server

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"
)

// DefaultWindow is how many games a signed server keeps live at once,
// unless [Options] says otherwise: 2^20, a record of 12 MiB.
const DefaultWindow = 1 << 20

// MinWindow is the smallest window a server takes.
const MinWindow = 1 << 10

// DefaultIdle is how long a live game may go without an action before
// its place may go to a new game, unless [Options] says otherwise.
const DefaultIdle = time.Hour

// slotSize is the record's memory a live game.
const slotSize = 12

// reclaimScan bounds the places a new game looks at for one to take over.
const reclaimScan = 64

// The record's refusals of a state, and of a new game.
var (
	errUsed    = errors.New("this state has been played already: a state is good for one action, so carry on from the state of the last answer")
	errExpired = errors.New("this state is too old to play")
	errBusy    = errors.New("the server holds as many live games as it keeps, each played lately: try again later")
)

// ticket is what a sealed state carries of its game: the game's place in
// the record, the generation of that place (a place goes to a new game
// once its game is idle), and the state's step in its game.
type ticket struct {
	slot, gen, step uint32
}

// slot is one live game: its generation, the step of the one state of it
// that may be played, and when it last handed out a state (seconds since
// the record was made, plus one; 0 for a place never taken). A place
// whose game is over for good is free: seen holds freeBit and the next
// free place (a list through the slots, so that it takes no memory of its
// own).
type slot struct {
	gen, step, seen uint32
}

// freeBit marks a free place's seen; the clock stays below it.
const freeBit = 1 << 31

// noFree ends the list of free places.
const noFree = freeBit - 1

// record is the live-game record of a signed server. Each game holds a
// place of its own from init on: a state is playable once, and only if it
// is its game's latest, so playing it spends it and no other game's
// traffic can. A new game takes a place never used, the place of a game
// over for good (freed by end), or the place of a game idle longer than
// idle; when every place is held by a game played
// within idle, init is refused (503) rather than any game ended. The
// memory is slotSize bytes a place, whatever the traffic.
type record struct {
	mu     sync.Mutex
	serial uint64 // the next seal's nonce: never the same twice in a run
	slots  []slot
	fresh  int    // places taken so far; those from fresh on were never used
	free   uint32 // the first place of a game over for good, or noFree
	hand   int    // where the next search for an idle place starts
	idle   uint32
	start  time.Time
	now    func() time.Time
}

// newRecord returns a record of window games, at least MinWindow, each
// live until idle for idle (at least a second).
func newRecord(window int, idle time.Duration) *record {
	w := max(window, MinWindow)
	return &record{slots: make([]slot, w), free: noFree, idle: uint32(max(idle/time.Second, 1)), start: time.Now(), now: time.Now}
}

// clock returns the time as the record keeps it: seconds since it was
// made, plus one (below freeBit: 68 years).
func (r *record) clock() uint32 {
	return uint32(min(r.now().Sub(r.start)/time.Second, freeBit-2)) + 1
}

// millis returns the time as the seals keep it: milliseconds since the
// record was made (monotonic), plus one.
func (r *record) millis() uint64 {
	return uint64(max(r.now().Sub(r.start)/time.Millisecond, 0)) + 1
}

// nonce returns the serial of a new seal.
func (r *record) nonce() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.serial++
	return r.serial
}

// begin gives a new game a place: one never used, the place of a game
// over for good, or the place of a game idle longer than idle, found
// among the next reclaimScan places in turn; errBusy if none is.
func (r *record) begin() (ticket, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.clock()
	i := -1
	switch {
	case r.fresh < len(r.slots):
		i = r.fresh
		r.fresh++
	case r.free != noFree:
		i = int(r.free)
		r.free = r.slots[i].seen &^ freeBit
	default:
		for range min(reclaimScan, len(r.slots)) {
			j := r.hand
			r.hand = (r.hand + 1) % len(r.slots)
			if seen := r.slots[j].seen; seen&freeBit == 0 && now-seen > r.idle {
				i = j
				break
			}
		}
	}
	if i < 0 {
		return ticket{}, fmt.Errorf("%w (%d games, each played in the last %d s)", errBusy, len(r.slots), r.idle)
	}
	s := &r.slots[i]
	s.gen++
	s.step, s.seen = 0, now
	return ticket{slot: uint32(i), gen: s.gen, step: 0}, nil
}

// check reports whether the state of ticket t may be played: nil, or
// errUsed or errExpired, with what happened.
func (r *record) check(t ticket) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.checkLocked(t)
}

func (r *record) checkLocked(t ticket) error {
	if int(t.slot) >= len(r.slots) || t.gen > r.slots[t.slot].gen {
		// Only a sealed state carries a ticket, and the server sealed it:
		// a place or generation not handed out is a broken server.
		return fmt.Errorf("game %d.%d has not been handed out", t.slot, t.gen)
	}
	s := &r.slots[t.slot]
	switch {
	case t.gen < s.gen:
		return fmt.Errorf("%w: its game was over, or went unplayed for over %d s, and its place went to a new game", errExpired, r.idle)
	case t.step < s.step:
		return errUsed
	case t.step > s.step:
		return fmt.Errorf("step %d of game %d.%d has not been handed out", t.step, t.slot, t.gen)
	case s.step == math.MaxUint32:
		return fmt.Errorf("%w: the game has played 2^32-1 actions, the most one game plays", errExpired)
	}
	return nil
}

// use spends the state of ticket t and returns the ticket of the next
// state of its game, or reports why t cannot be used. Of two requests
// with one state, exactly one gets nil.
func (r *record) use(t ticket) (ticket, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.checkLocked(t); err != nil {
		return ticket{}, err
	}
	s := &r.slots[t.slot]
	s.step++
	if s.seen&freeBit == 0 {
		s.seen = r.clock()
	}
	return ticket{slot: t.slot, gen: s.gen, step: s.step}, nil
}

// end frees the place of the game of ticket t, over for good, for a new
// game to take at once: its states stay playable until one does (an
// observe, a refused move), as an idle game's do.
func (r *record) end(t ticket) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &r.slots[t.slot]
	if t.gen != s.gen || t.step != s.step || s.seen&freeBit != 0 {
		return // not its game's latest state, or freed already
	}
	s.seen = freeBit | r.free
	r.free = t.slot
}

// size returns the record's memory in bytes.
func (r *record) size() int { return len(r.slots) * slotSize }
