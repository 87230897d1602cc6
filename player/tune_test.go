package player

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tileproof/tileproof/engine"
)

func TestTune(t *testing.T) {
	ns := os.Getenv("TUNE_N")
	if ns == "" {
		t.Skip()
	}
	n, _ := strconv.Atoi(ns)
	depth, _ := strconv.Atoi(os.Getenv("TUNE_DEPTH"))
	stop, _ := strconv.Atoi(os.Getenv("TUNE_STOP"))
	verbose := os.Getenv("TUNE_VERBOSE") != ""
	limit, _ := strconv.Atoi(os.Getenv("TUNE_LIMIT"))
	prefix := os.Getenv("TUNE_PREFIX")
	if prefix == "" {
		prefix = "strength-"
	}
	prof, _ := engine.BuiltinProfile("tile-merge")
	if sz := os.Getenv("TUNE_SIZE"); sz != "" {
		var err error
		prof, err = engine.ParseProfile("x", []byte("name: x\nbase: tile-merge\nrows: "+sz+"\ncols: "+sz+"\n"))
		if err != nil {
			t.Fatal(err)
		}
	}
	rules, _ := engine.Compile(prof)
	type res struct {
		max    uint64
		moves  int
		dur    time.Duration
		slides int
	}
	out := make([]res, n)
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range 2 {
		wg.Go(func() {
			p := NewExpectimax(ExpectimaxOptions{Depth: depth}).(*expectimax)
			for i := range jobs {
				g, _ := rules.NewGame(fmt.Sprintf("%s%d", prefix, i))
				start := time.Now()
				sl := 0
				for !g.Over() {
					t0 := time.Now()
					d := p.Choose(g)
					if el := time.Since(t0); verbose && el > 20*time.Millisecond {
						t.Logf("move %d: %v slides %d empty %d\n%v", g.Moves(), el, p.slides, g.Board().Empty(), g.Board())
					}
					sl += p.slides
					if _, err := g.Move(d); err != nil {
						panic(err)
					}
					if limit > 0 && g.Moves() >= limit {
						break
					}
					if stop > 0 && g.MaxTile() >= uint64(stop) {
						break
					}
				}
				out[i] = res{g.MaxTile(), g.Moves(), time.Since(start), sl}
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	var moves, r2048, r4096 int
	var dur time.Duration
	var sl int
	for i, r := range out {
		t.Logf("game %d: max %d moves %d %.2f ms/move %.0f slides/move", i, r.max, r.moves, float64(r.dur.Microseconds())/1000/float64(r.moves), float64(r.slides)/float64(r.moves))
		moves += r.moves
		dur += r.dur
		sl += r.slides
		if r.max >= 2048 {
			r2048++
		}
		if r.max >= 4096 {
			r4096++
		}
	}
	t.Logf("2048: %d/%d 4096: %d  mean moves %d  %.2f ms/move  %.0f slides/move", r2048, n, r4096, moves/n, float64(dur.Microseconds())/1000/float64(moves), float64(sl)/float64(moves))
}

func init() {
	for k, f := range map[string]*float64{"W_EMPTY": &defaultWeights.empty, "W_MERGE": &defaultWeights.merge, "W_MONO": &defaultWeights.mono, "W_SUM": &defaultWeights.sum, "W_BASE": &defaultWeights.base, "W_MONOPOW": &defaultWeights.monoPow, "W_SUMPOW": &defaultWeights.sumPow} {
		if v := os.Getenv(k); v != "" {
			*f, _ = strconv.ParseFloat(v, 64)
		}
	}
}
