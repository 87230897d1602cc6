package conformance

import "testing"

// BenchmarkSuite runs the whole pack (no properties) against the engine
// in-process and against the reference adapter over the exec protocol,
// and reports cases per second: the exec figure is what the pipe round
// trips cost, the builtin one what the runner itself costs.
func BenchmarkSuite(b *testing.B) {
	pack := loadRepoPack(b)
	for _, impl := range []struct {
		name string
		new  func() Impl
	}{
		{"builtin", func() Impl { return &Builtin{} }},
		{"exec-adapter", func() Impl { return adapterB(b) }},
	} {
		b.Run(impl.name, func(b *testing.B) {
			im := impl.new()
			defer im.Close()
			n := 0
			for b.Loop() {
				rep, err := Run(pack, im, Options{})
				if err != nil {
					b.Fatal(err)
				}
				n += len(rep.Results)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "cases/s")
		})
	}
}

func adapterB(b *testing.B) *Exec {
	bin, err := buildAdapter()
	if err != nil {
		b.Fatal(err)
	}
	return &Exec{Command: bin}
}
