package batchfiles

import "sync"

// The memory of one batch is bounded whatever the number of workers
// or the shape of the files (issue 25, item 3): each replay is weighed
// before it is read (a file by its size, a line of JSON Lines once read)
// by what verifying it may take at most, and the replays read but not yet
// verified share one budget, so that workers never multiply the bound of
// a file. Figures: docs/security.md.

// verifyMemPerByte is the most a replay's verification allocates a byte
// of input: a spawn-recorded log of one-letter actions, each held with
// its spawn and its move's open cells (measured by BenchmarkHostile and
// /usr/bin/time, docs/security.md).
const verifyMemPerByte = 36

// maxReplayWeight is the most one replay may take, whatever its size: the
// action bound of a spawn-recorded log (replay.MaxSpawnLogActions, some
// 34 bytes an action) and a few copies of a 64 MiB file (the worst shape
// measured: docs/security.md).
const maxReplayWeight = 400 << 20

// runBudget is the memory the replays in flight share: 1 GiB, so that
// two of the heaviest verify at once and any number of light ones.
const runBudget = 1 << 30

// replayWeight is what verifying a replay of size bytes may take.
func replayWeight(size int64) int64 {
	return min(max(size, 1)*verifyMemPerByte, maxReplayWeight)
}

// memBudget is a weighted semaphore on memory: acquire waits until the
// weight is free. The zero value has a total of runBudget, so that the
// command does no work at start (TestNoInitWork).
type memBudget struct {
	mu    sync.Mutex
	cond  *sync.Cond
	total int64 // 0: runBudget
	held  int64 // taken now
	peak  int64 // the most taken at once
}

// acquire takes w from the budget, waiting while it is not free, and
// returns the function that gives it back. A weight above the whole
// budget is never free: callers weigh at most maxReplayWeight, below it.
func (b *memBudget) acquire(w int64) func() {
	b.mu.Lock()
	if b.cond == nil {
		b.cond = sync.NewCond(&b.mu)
	}
	total := b.total
	if total == 0 {
		total = runBudget
	}
	for b.held+w > total {
		b.cond.Wait()
	}
	b.held += w
	b.peak = max(b.peak, b.held)
	b.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			b.held -= w
			b.mu.Unlock()
			b.cond.Broadcast()
		})
	}
}

// budget is the budget of the replays of this process's batches.
var budget = &memBudget{}
