package htmlview

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// The chart's drawing area, in SVG user units (replay.html draws its
// frame at these).
const (
	chartW, chartH = 640.0, 150.0
	padL, padB     = 56.0, 20.0
)

// chartLine gathers the score over the steps for the chart as the steps
// come, in at most 2 x chartWidth points (a point the largest score of
// the steps it covers: per steps, doubled and the points merged in pairs
// when they overflow).
type chartLine struct {
	per, n int
	pts    []chartPt
	last   uint64
}

type chartPt struct {
	i    int // the first step the point covers
	best uint64
}

const chartWidth = int(chartW - padL)

func (c *chartLine) add(score uint64) {
	if c.per == 0 {
		c.per = 1
	}
	if c.n%c.per == 0 {
		if len(c.pts) == 2*chartWidth {
			for k := range chartWidth {
				a, b := c.pts[2*k], c.pts[2*k+1]
				c.pts[k] = chartPt{a.i, max(a.best, b.best)}
			}
			c.pts = c.pts[:chartWidth]
			c.per *= 2
		}
	}
	if c.n%c.per == 0 {
		c.pts = append(c.pts, chartPt{c.n, score})
	} else {
		p := &c.pts[len(c.pts)-1]
		p.best = max(p.best, score)
	}
	c.last = score
	c.n++
}

// chartView is what replay.html's chart draws: the score line's points,
// the top score and the last step (digits grouped), and the number of
// viewer steps.
type chartView struct {
	Points, Top, Last string
	Steps             int
}

// view returns the chart of the score at each step; steps is the number
// of viewer steps.
func (c *chartLine) view(steps int) chartView {
	var top uint64 = 1
	for _, p := range c.pts {
		top = max(top, p.best)
	}
	n := max(steps-1, 1)
	x := func(i int) float64 { return padL + float64(i)/float64(n)*(chartW-padL-4) }
	y := func(s uint64) float64 { return 6 + (1-float64(s)/float64(top))*(chartH-padB-6) }
	var pts strings.Builder
	for _, p := range c.pts {
		fmt.Fprintf(&pts, "%.1f,%.1f ", x(p.i), y(p.best))
	}
	fmt.Fprintf(&pts, "%.1f,%.1f", x(max(c.n-1, 0)), y(c.last))
	return chartView{Points: pts.String(), Top: grouped(top), Last: grouped(uint64(steps - 1)), Steps: steps}
}

// grouped writes n with its digits grouped by threes: 173,632.
func grouped(n uint64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// bin is one bar of a histogram: the values in [Lo, Hi).
type bin struct {
	Lo, Hi uint64
	Count  int
}

// histogram puts values in at most maxBins bins of a round width (1, 2 or
// 5 times a power of ten).
func histogram(values []uint64, maxBins int) []bin {
	if len(values) == 0 {
		return nil
	}
	lo, hi := slices.Min(values), slices.Max(values)
	want := max(1, min(maxBins, int(math.Ceil(math.Sqrt(float64(len(values)))))+1))
	var width uint64
search:
	for p := uint64(1); ; p *= 10 {
		for _, m := range []uint64{1, 2, 5} {
			if width = m * p; (hi/width-lo/width)+1 <= uint64(want) {
				break search
			}
		}
	}
	start := lo / width * width
	bins := make([]bin, (hi-start)/width+1)
	for i := range bins {
		bins[i].Lo = start + uint64(i)*width
		bins[i].Hi = bins[i].Lo + width
	}
	for _, v := range values {
		bins[(v-start)/width].Count++
	}
	return bins
}

// bar is one bar of the histogram as report.html draws it, in SVG user
// units: its rectangle (X, Y, W, H), where its count is written (Mid,
// Above), and its label, the bin's lowest score digits grouped, on every
// few bars ("" on the others). Last is the bin's highest score.
type bar struct {
	bin
	Last                   uint64
	X, Y, W, H, Mid, Above float64
	Label                  string
}

// histogramBars lays bins out as the histogram's bars: 600 units wide
// from x 30, up to 132 units tall above the axis at y 146.
func histogramBars(bins []bin) []bar {
	top := 1
	for _, b := range bins {
		top = max(top, b.Count)
	}
	const h, bottom = 180.0, 34.0
	bw := 600 / float64(len(bins))
	bars := make([]bar, len(bins))
	for i, bn := range bins {
		bh := float64(bn.Count) / float64(top) * (h - bottom - 14)
		x := 30 + float64(i)*bw
		bars[i] = bar{bin: bn, Last: bn.Hi - 1, X: x + 1, Y: h - bottom - bh, W: bw - 2, H: bh, Mid: x + bw/2, Above: h - bottom - bh - 3}
		if i%max(1, len(bins)/8) == 0 {
			bars[i].Label = grouped(bn.Lo)
		}
	}
	return bars
}

// logHistogram puts scores in bins of a log scale, four to a doubling,
// so that the spread shows when a few games score far above the rest
// (on a linear scale one bar held most games); a batch whose scores lie
// within a factor of 4 gets histogram's round bins instead. A score of 0
// has a bin of its own.
func logHistogram(values []uint64) []bin {
	if len(values) == 0 {
		return nil
	}
	lo, hi := slices.Min(values), slices.Max(values)
	if hi < 4*max(lo, 1) {
		return histogram(values, 20)
	}
	var edges []uint64 // the bins' lower bounds, increasing
	if lo == 0 {
		edges = append(edges, 0)
	}
	for j := 0; ; j++ {
		e := uint64(math.Floor(math.Pow(2, float64(j)/4)))
		if e > hi {
			break
		}
		if len(edges) > 0 && e <= edges[len(edges)-1] {
			continue
		}
		next := uint64(math.Floor(math.Pow(2, float64(j+1)/4)))
		if next <= lo && e > 0 {
			continue
		}
		edges = append(edges, e)
	}
	bins := make([]bin, len(edges))
	for i, e := range edges {
		bins[i].Lo = e
		if i+1 < len(edges) {
			bins[i].Hi = edges[i+1]
		} else {
			bins[i].Hi = hi + 1
		}
	}
	for _, v := range values {
		i, found := slices.BinarySearch(edges, v) // the bin whose Lo is the last edge at most v
		if !found {
			i--
		}
		bins[i].Count++
	}
	return bins
}
