package server

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestRecordOnceWithinTheWindow: each serial is usable once, exactly while
// fewer than window serials were issued after it.
func TestRecordOnceWithinTheWindow(t *testing.T) {
	r := newRecord(MinWindow)
	if r.window != MinWindow {
		t.Fatalf("window %d", r.window)
	}
	if err := r.check(0); err == nil {
		t.Errorf("serial 0 usable before it was issued")
	}
	for s := range uint64(3 * MinWindow) {
		if got := r.issue(); got != s {
			t.Fatalf("issued %d, want %d", got, s)
		}
		if s%3 == 0 {
			if err := r.use(s); err != nil {
				t.Fatalf("the first use of %d: %v", s, err)
			}
			if err := r.use(s); !errors.Is(err, errUsed) {
				t.Fatalf("the second use of %d: %v", s, err)
			}
		}
		// The oldest serial of the window is still usable (unless used),
		// the one before it is not.
		if s >= MinWindow {
			oldest := s + 1 - MinWindow
			if err := r.check(oldest); oldest%3 != 0 && err != nil {
				t.Fatalf("after %d: the oldest serial %d: %v", s, oldest, err)
			}
			if err := r.check(oldest - 1); !errors.Is(err, errExpired) {
				t.Fatalf("after %d: serial %d, out of the window: %v", s, oldest-1, err)
			}
		}
	}
	// A serial reused by the window's bit is clean for its new state.
	s := r.issue()
	if err := r.use(s); err != nil {
		t.Errorf("a new serial on a recycled bit: %v", err)
	}
}

func TestRecordRoundsTheWindow(t *testing.T) {
	for _, tt := range []struct{ ask, want int }{{1, MinWindow}, {MinWindow + 1, 2 * MinWindow}, {DefaultWindow, DefaultWindow}} {
		if r := newRecord(tt.ask); int(r.window) != tt.want || r.size() != tt.want/8 {
			t.Errorf("window %d: %d, %d bytes; want %d", tt.ask, r.window, r.size(), tt.want)
		}
	}
}

// TestRecordMemory measures the heap of a signed server's record at the
// default window, and checks that using states does not grow it.
func TestRecordMemory(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	r := newRecord(DefaultWindow)
	made := heap()
	for range 1 << 20 {
		r.use(r.issue())
	}
	used := heap()
	runtime.KeepAlive(r)
	t.Logf("record of %d states: %d bytes (%d by the heap); after 2^20 states used, %+d bytes more", DefaultWindow, r.size(), made-before, int64(used)-int64(made))
	if r.size() != DefaultWindow/8 || made-before > uint64(r.size())+64<<10 || used > made+64<<10 {
		t.Errorf("record: %d bytes, the heap %d bytes more, then %+d bytes after use", r.size(), made-before, int64(used)-int64(made))
	}
}

// TestRecordUseIsAtomic: of goroutines using one serial at once, exactly
// one succeeds, for each of many serials: the racers go through the same
// serials side by side.
func TestRecordUseIsAtomic(t *testing.T) {
	const serials, racers = 1 << 16, 4
	r := newRecord(serials)
	for range serials {
		r.issue()
	}
	wins := make([]atomic.Int32, serials)
	var wg sync.WaitGroup
	for range racers {
		wg.Go(func() {
			for s := range uint64(serials) {
				if r.use(s) == nil {
					wins[s].Add(1)
				}
			}
		})
	}
	wg.Wait()
	for s := range wins {
		if n := wins[s].Load(); n != 1 {
			t.Fatalf("serial %d used %d times", s, n)
		}
	}
}
