package termview

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Progress is a progress line on a terminal while a long batch runs,
// redrawn in place. What else is written to the terminal is written with
// the line cleared ([Progress.ClearWhile]), so that the two never share a
// line; the next tick draws it again.
type Progress struct {
	done  chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	w     io.Writer // nil: no line drawn
	drawn bool      // the line is on the screen
}

// StartProgress draws text(elapsed) on w four times a second, from a
// second after the start, until Stop. With w nil (not a terminal) it
// draws nothing.
func StartProgress(w io.Writer, text func(elapsed time.Duration) string) *Progress {
	p := &Progress{done: make(chan struct{}), w: w}
	if w == nil {
		return p
	}
	start := time.Now()
	p.wg.Go(func() {
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.done:
				p.ClearWhile(func() {})
				return
			case <-tick.C:
				if el := time.Since(start); el > time.Second {
					p.mu.Lock()
					fmt.Fprint(w, "\r\033[K"+text(el))
					p.drawn = true
					p.mu.Unlock()
				}
			}
		}
	})
	return p
}

// ClearWhile runs write with the progress line off the screen.
func (p *Progress) ClearWhile(write func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
	write()
}

// Stop clears the line and stops drawing it.
func (p *Progress) Stop() {
	close(p.done)
	p.wg.Wait()
}
