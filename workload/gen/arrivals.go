// Package gen generates workloads so that experiments can run without a
// trace file: "synthetic" MapReduce jobs from size classes, "fb2010" (an
// embedded synthetic workload shaped like the SWIM FB-2010 day),
// "workflow" job DAGs (Dawn §2.2, §5.2: its ML benchmarks and the 22 TPC-H
// queries, on MapReduce or as Tez jobs) and "multistage" Tez-like jobs.
// Every generator is a pure function of its options and seed: the same
// seed gives the same jobs, drawn from math/rand/v2 PCG streams.
package gen

import (
	"math/rand/v2"
	"slices"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/jobmodel"
	"github.com/netsched/netsched/workload"
)

// Arrivals is the arrival process of jobs (or workflows).
type Arrivals struct {
	// Process: "poisson" (exponential gaps with mean Gap.A), "trace-like"
	// (gaps drawn from Gap, e.g. a heavy-tailed lognormal fitted to a
	// trace), "uniform" (Count arrivals uniform at random in [0, Window),
	// as Corral/Dawn submit TPC-H queries and JobPacker §5.3 its jobs) or
	// "bursty" (the Google-trace submission rate of Dawn Fig. 6(a),
	// bursty.go).
	Process string
	Gap     workload.Dist // seconds
	Window  float64       // seconds
	Bursty  Bursty
}

// Base holds what every generator reads: how many, when, and the seed.
type Base struct {
	Count    int     // number of jobs (workflows); 0 = until Duration
	Duration float64 // stop after this arrival time; 0 = until Count
	Arrivals Arrivals
	Seed     uint64
}

// parseBase reads count, duration, arrival, interarrival, window, the
// bursty options and seed.
func parseBase(o *jobmodel.Options, sc *scenario.Scenario, defCount int, def Arrivals) Base {
	var seed uint64
	if sc != nil {
		seed = sc.Seed
	}
	process := o.Choice("arrival", def.Process, "poisson", "trace-like", "uniform", "bursty")
	if process == "bursty" {
		defCount = 0 // every arrival of the span
	}
	b := Base{
		Count:    o.Int("count", defCount),
		Duration: o.Duration("duration", 0),
		Seed:     o.Seed("seed", seed),
		Arrivals: Arrivals{
			Process: process,
			Gap:     o.Dist("interarrival", jobmodel.Time, def.Gap),
			Window:  o.Duration("window", def.Window),
			Bursty:  parseBursty(o, process == "bursty"),
		},
	}
	switch a := &b.Arrivals; a.Process {
	case "poisson":
		if k := a.Gap.Kind; k != "" && k != workload.Const && k != workload.Exponential {
			o.Fail("interarrival", "poisson arrivals take a mean gap (a duration), not a %s distribution; use arrival: trace-like", k)
		}
		a.Gap = workload.Dist{Kind: workload.Exponential, A: a.Gap.A}
	case "uniform":
		if b.Count == 0 {
			o.Fail("count", "uniform arrivals need a count")
		}
		if a.Window <= 0 {
			o.Fail("window", "uniform arrivals need a window > 0")
		}
	}
	if b.Count == 0 && b.Duration == 0 && process != "bursty" {
		o.Fail("count", "give count or duration (both 0 would generate forever)")
	}
	return b
}

// clock yields the arrival times of one pass in non-decreasing order. The
// first poisson or trace-like arrival is at time 0.
type clock struct {
	a      Arrivals
	rng    *rand.Rand
	t      float64
	n      int
	times  []float64 // uniform: all arrivals, sorted
	bursty *burstClock
}

func (a Arrivals) start(rng *rand.Rand, count int) *clock {
	c := &clock{a: a, rng: rng}
	switch a.Process {
	case "uniform":
		c.times = make([]float64, count)
		for i := range c.times {
			c.times[i] = a.Window * rng.Float64()
		}
		slices.Sort(c.times)
	case "bursty":
		c.bursty = a.Bursty.start(rng)
	}
	return c
}

// next returns the next arrival time; ok is false when the process has no
// more (uniform: all Count drawn; bursty: the span is over).
func (c *clock) next() (t float64, ok bool) {
	defer func() { c.n++ }()
	switch {
	case c.times != nil:
		if c.n >= len(c.times) {
			return 0, false
		}
		return c.times[c.n], true
	case c.bursty != nil:
		return c.bursty.next()
	}
	if c.n > 0 {
		c.t += c.a.Gap.Sample(c.rng, c.n, 0)
	}
	return c.t, true
}

// more reports whether the i-th arrival at time t is still in the workload.
func (b *Base) more(i int, t float64) bool {
	return (b.Count == 0 || i < b.Count) && (b.Duration == 0 || t <= b.Duration)
}

// Stream constants: each generator draws from its own PCG streams
// (seed, constant + k) so that, e.g., changing the label options does not
// change job sizes.
const (
	streamArrivals = iota
	streamSizes
	streamLabels
)

func rngFor(seed, gen uint64, purpose int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, gen+uint64(purpose)))
}
