package cotask

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomInstance draws T tasks on M hosts: lognormal task sizes (median
// 10 s) times per-host slowness 1/speed with speed uniform in [0.5, 2],
// times a per-pair factor in [0.8, 1.25] (data locality and the like, so
// that times are not merely proportional), and a backlog uniform in
// [0, 200] s per host.
func randomInstance(seed uint64, T, M int) Instance {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	speed := make([]float64, M)
	in := Instance{Times: make([][]float64, T), Backlog: make([]float64, M)}
	for k := range speed {
		speed[k] = 0.5 + 1.5*rng.Float64()
		in.Backlog[k] = 200 * rng.Float64()
	}
	for j := range in.Times {
		size := 10 * math.Exp(rng.NormFloat64())
		in.Times[j] = make([]float64, M)
		for k := range in.Times[j] {
			in.Times[j][k] = size / speed[k] * (0.8 + 0.45*rng.Float64())
		}
	}
	return in
}

// BenchmarkRelaxation100x100 is the full MinCCT search (CCT-LP at every
// probe) for 100 tasks on 100 hosts.
func BenchmarkRelaxation100x100(b *testing.B) {
	in := randomInstance(1, 100, 100)
	var f Fractional
	for b.Loop() {
		var err error
		if f, err = MinCCT(in, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(f.LPSolves), "LPs/op")
	b.ReportMetric(float64(f.LPIterations), "iters/op")
}

// BenchmarkPlace100x100 is the whole placement: MinCCT, Round, Aggregate.
func BenchmarkPlace100x100(b *testing.B) {
	in := randomInstance(1, 100, 100)
	for b.Loop() {
		if _, err := Place(in, nil); err != nil {
			b.Fatal(err)
		}
	}
}
