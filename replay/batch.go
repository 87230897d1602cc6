package replay

import (
	"context"
	"fmt"
	"sync"
)

// Input is one replay of a batch: a file's bytes or a line of JSON Lines,
// or the error that kept it from being read.
type Input struct {
	Name string
	Data []byte
	Err  error
	// Release, when set, is called once the input is verified: the
	// reader gives back the memory it reserved for it.
	Release func()
}

// batchSize is the most inputs a worker takes at once: handing replays
// over one at a time costs more in waking goroutines than verifying a
// short replay does.
const batchSize = 64

// VerifyBatch verifies inputs on workers goroutines, each with verify
// (usually [Verifier.VerifyFile]), and hands the verdicts to emit in input
// order, each as soon as it and those before it are ready. An input that
// could not be read is a Malformed verdict; the batch goes on.
//
// Whenever it has handed emit every verdict ready and must wait for the
// next, and once at the end, it calls idle (when not nil): emit may buffer
// what it writes, and idle write it out, so that a fast batch makes few
// writes and a slow stream still gets each verdict promptly.
//
// Once ctx is done it verifies no more inputs: it hands emit the verdicts
// of those verified already, in order up to the first left out, gives
// back the memory of those left (Release) as they arrive, and returns when
// inputs is closed (the sender stops too, as batchfiles.Read does).
func VerifyBatch(ctx context.Context, inputs <-chan Input, workers int, verify func(name string, data []byte) Verdict, emit func(Verdict), idle func()) {
	type work struct {
		in  []Input
		out chan []Verdict
	}
	workers = max(1, workers)
	order := make(chan chan []Verdict, 2*workers) // bounds the work waiting for earlier work
	jobs := make(chan work)
	go func() {
		defer close(jobs)
		defer close(order)
		for in := range inputs {
			if ctx.Err() != nil {
				in.release()
				continue // drained: the sender closes inputs
			}
			// Take what has arrived, up to batchSize, without waiting for
			// more: a slow stream still gets each verdict promptly.
			chunk := []Input{in}
		more:
			for len(chunk) < batchSize {
				select {
				case next, ok := <-inputs:
					if !ok {
						break more
					}
					chunk = append(chunk, next)
				default:
					break more
				}
			}
			ch := make(chan []Verdict, 1)
			order <- ch
			jobs <- work{chunk, ch}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for w := range jobs {
				out := make([]Verdict, 0, len(w.in))
				for i, in := range w.in {
					if ctx.Err() != nil {
						in.release()
						continue
					}
					out = out[:i+1]
					if in.Err != nil {
						out[i] = Verdict{Name: in.Name, Reason: Malformed, Error: fmt.Sprintf("%s: %v", in.Name, in.Err)}
					} else {
						out[i] = verify(in.Name, in.Data)
					}
					w.in[i].Data = nil // the chunk is held until its verdicts are out: not its data
					in.release()
				}
				w.out <- out
			}
		})
	}
	if idle == nil {
		idle = func() {}
	}
	cut := false // a chunk was cut short: no verdict after it is emitted
	for {
		ch, ok := receive(order, idle)
		if !ok {
			break
		}
		verdicts, _ := receive(ch, idle)
		if cut {
			continue
		}
		for _, vd := range verdicts {
			emit(vd)
		}
		cut = len(verdicts) < cap(verdicts) // a worker makes a chunk's verdicts with room for all
	}
	idle()
	wg.Wait()
}

// release gives back the memory the reader reserved for in, if any.
func (in Input) release() {
	if in.Release != nil {
		in.Release()
	}
}

// receive takes a value from c, calling idle first when none is ready.
func receive[T any](c <-chan T, idle func()) (T, bool) {
	select {
	case v, ok := <-c:
		return v, ok
	default:
	}
	idle()
	v, ok := <-c
	return v, ok
}
