package replay

import (
	"sync"

	"github.com/tileproof/tileproof/engine"
)

// scratch is the memory one verification works in: the replay decoded,
// each counted move's open cells, the spawns' counts and the canonical
// form. Verifications take it from scratchPool and give it back, so that
// a batch allocates little a replay beyond its verdict.
type scratch struct {
	r       Replay
	actions []engine.Action // room for r.Actions
	spawns  []engine.Spawn  // room for r.Spawns
	open    []uint64
	counter SpawnCounter
	form    []byte
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxKeptActions bounds the room a scratch keeps between verifications:
// enough for any real game (the longest known take some 10,000 moves),
// while one hostile file of millions of moves leaves nothing behind.
const maxKeptActions = 1 << 16

func getScratch() *scratch { return scratchPool.Get().(*scratch) }

// put gives s back for another verification, unless it holds more than a
// game's room.
func (s *scratch) put() {
	if cap(s.actions) > maxKeptActions || cap(s.spawns) > maxKeptActions || cap(s.open) > maxKeptActions {
		return
	}
	s.r = Replay{}
	scratchPool.Put(s)
}

// decode decodes a replay into s.r, in s's room.
func (s *scratch) decode(name string, data []byte) error {
	s.r.Actions, s.r.Spawns = s.actions[:0], s.spawns[:0]
	err := decodeInto(name, data, &s.r)
	if cap(s.r.Actions) > cap(s.actions) {
		s.actions = s.r.Actions[:0]
	}
	if cap(s.r.Spawns) > cap(s.spawns) {
		s.spawns = s.r.Spawns[:0]
	}
	return err
}

// openCells returns room for n moves' open cells.
func (s *scratch) openCells(n int) []uint64 {
	if cap(s.open) < n {
		s.open = make([]uint64, n)
	}
	return s.open[:n]
}
