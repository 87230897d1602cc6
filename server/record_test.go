package server

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRecordOneStateAGame: a game's latest state is playable once; its
// earlier states are used; other games' traffic changes nothing of it.
func TestRecordOneStateAGame(t *testing.T) {
	r := newRecord(MinWindow, time.Hour)
	a, err := r.begin()
	if err != nil {
		t.Fatal(err)
	}
	for range MinWindow - 1 { // other games, each playing
		b, err := r.begin()
		if err != nil {
			t.Fatalf("a new game: %v", err)
		}
		if _, err := r.use(b); err != nil {
			t.Fatal(err)
		}
	}
	next, err := r.use(a)
	if err != nil {
		t.Fatalf("the first use: %v", err)
	}
	if _, err := r.use(a); !errors.Is(err, errUsed) {
		t.Errorf("a state used again: %v", err)
	}
	if err := r.check(ticket{next.slot, next.gen, next.step + 1}); err == nil || errors.Is(err, errUsed) {
		t.Errorf("a step not handed out: %v", err)
	}
	if _, err := r.use(next); err != nil {
		t.Errorf("the next state: %v", err)
	}
}

// TestRecordBusyNotExpired: with every place held by a game played
// lately, a new game is refused (errBusy) and every game plays on; once a
// game is idle past the limit, a new game takes its place and the idle
// game's state is expired.
func TestRecordBusyNotExpired(t *testing.T) {
	r := newRecord(MinWindow, time.Minute)
	now := time.Now()
	r.now = func() time.Time { return now }
	games := make([]ticket, MinWindow)
	for i := range games {
		var err error
		if games[i], err = r.begin(); err != nil {
			t.Fatal(err)
		}
	}
	for range 100 {
		if _, err := r.begin(); !errors.Is(err, errBusy) {
			t.Fatalf("a new game with every place held: %v", err)
		}
	}
	for i := range games {
		if err := r.check(games[i]); err != nil {
			t.Fatalf("game %d after the refused inits: %v", i, err)
		}
	}
	// Every game but the first plays on; the first goes idle.
	now = now.Add(50 * time.Second)
	for i := 1; i < len(games); i++ {
		var err error
		if games[i], err = r.use(games[i]); err != nil {
			t.Fatal(err)
		}
	}
	now = now.Add(20 * time.Second)
	// The search for an idle place goes on from where the last ended, a
	// few places an init: within a turn of the record it finds it.
	var n ticket
	var err error
	for range MinWindow/reclaimScan + 1 {
		if n, err = r.begin(); err == nil {
			break
		}
	}
	if err != nil || n.slot != games[0].slot {
		t.Fatalf("a new game after one went idle: %+v %v", n, err)
	}
	if err := r.check(games[0]); !errors.Is(err, errExpired) {
		t.Errorf("the idle game: %v", err)
	}
	if err := r.check(games[1]); err != nil {
		t.Errorf("a game played lately: %v", err)
	}
}

// TestRecordMemory measures the heap of a signed server's record at the
// default window, and checks that playing does not grow it.
func TestRecordMemory(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	r := newRecord(DefaultWindow, DefaultIdle)
	made := heap()
	for range 1 << 16 {
		tk, _ := r.begin()
		for range 16 {
			tk, _ = r.use(tk)
		}
	}
	used := heap()
	runtime.KeepAlive(r)
	t.Logf("record of %d games: %d bytes (%d by the heap); after 2^20 actions, %+d bytes more", DefaultWindow, r.size(), made-before, int64(used)-int64(made))
	if r.size() != DefaultWindow*slotSize || made-before > uint64(r.size())+64<<10 || used > made+64<<10 {
		t.Errorf("record: %d bytes, the heap %d bytes more, then %+d bytes after use", r.size(), made-before, int64(used)-int64(made))
	}
}

// TestRecordUseIsAtomic: of goroutines using one state at once, exactly
// one succeeds, for each of many games: the racers go through the same
// games side by side.
func TestRecordUseIsAtomic(t *testing.T) {
	const games, racers = 1 << 14, 4
	r := newRecord(games, time.Hour)
	tickets := make([]ticket, games)
	for i := range tickets {
		tickets[i], _ = r.begin()
	}
	wins := make([]atomic.Int32, games)
	var wg sync.WaitGroup
	for range racers {
		wg.Go(func() {
			for i, tk := range tickets {
				if _, err := r.use(tk); err == nil {
					wins[i].Add(1)
				}
			}
		})
	}
	wg.Wait()
	for i := range wins {
		if n := wins[i].Load(); n != 1 {
			t.Fatalf("game %d's state used %d times", i, n)
		}
	}
}

// TestRecordEndFreesOnce: a place freed twice is listed once, so two new
// games never share it; freed places are taken before an idle one is
// looked for.
func TestRecordEndFreesOnce(t *testing.T) {
	r := newRecord(MinWindow, time.Hour)
	games := make([]ticket, MinWindow)
	for i := range games {
		games[i], _ = r.begin()
	}
	last, err := r.use(games[7])
	if err != nil {
		t.Fatal(err)
	}
	r.end(last)
	r.end(last)
	if _, err := r.use(games[3]); err != nil {
		t.Fatal(err)
	}
	r.end(games[3]) // a spent state: not its game's latest, so no end
	a, err := r.begin()
	if err != nil || a.slot != games[7].slot {
		t.Fatalf("a new game after one ended: %+v %v", a, err)
	}
	if _, err := r.begin(); !errors.Is(err, errBusy) {
		t.Fatalf("a second new game with one place freed: %v", err)
	}
	if err := r.check(last); !errors.Is(err, errExpired) {
		t.Errorf("the ended game's state: %v", err)
	}
	if err := r.check(ticket{slot: games[3].slot, gen: games[3].gen, step: 1}); err != nil {
		t.Errorf("a game that did not end: %v", err)
	}
}
