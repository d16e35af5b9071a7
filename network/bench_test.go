package network

import (
	"bufio"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const gbps = 1e9 / 8

// churn keeps `active` flows on a network: every completion starts a new
// random flow at the same instant.
type churn struct {
	n    *Network
	rng  *rand.Rand
	m    int
	pick func(*rand.Rand) (int, int)
}

func (c *churn) start(now float64) {
	src, dst := c.pick(c.rng)
	size := (1 + 99*c.rng.Float64()) * 1e6 // 1-100 MB
	if _, err := c.n.Start(now, FlowSpec{Src: src, Dst: dst, Size: size}); err != nil {
		panic(err)
	}
}

func (c *churn) step() {
	te := c.n.NextEvent()
	c.n.AdvanceTo(te, func(done Completion) { c.start(done.Time) })
}

func newChurn(b *testing.B, cfg Config, active int, pick func(*rand.Rand) (int, int)) *churn {
	cfg.Monitor.Interval = -1
	n, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	c := &churn{n: n, rng: rand.New(rand.NewPCG(7, 11)), m: len(cfg.Machines), pick: pick}
	for range active {
		c.start(0)
	}
	for range active { // let sizes and ages spread out
		c.step()
	}
	return c
}

func reportPerEvent(b *testing.B, c *churn, a0, ab0 int64) {
	b.ReportMetric(float64(c.n.ActiveFlows()), "flows")
	b.ReportMetric(float64(c.n.Groups()), "groups")
	if c.n.Allocations > 0 {
		b.ReportMetric(float64(c.n.Shifts)/float64(c.n.Allocations), "shifts/alloc")
	}
	if d := c.n.Allocations - a0; d > 0 {
		b.ReportMetric(float64(c.n.AllocatedBundles-ab0)/float64(d), "bundles/alloc")
	}
}

// BenchmarkChurnTwoTier: 5,000 concurrent flows between random machines of
// a 600-machine two-tier network (30 racks x 20, 10 Gbps NICs,
// oversubscription 5). One op = one event: a completion and the arrival
// that replaces it. Run with -benchtime 100000x for 100k arrivals and
// departures.
func BenchmarkChurnTwoTier(b *testing.B) {
	cfg := Config{Kind: TwoTier, Machines: machines(600, 20, 10*gbps), Oversubscription: 5}
	c := newChurn(b, cfg, 5000, func(r *rand.Rand) (int, int) {
		s, d := r.IntN(600), r.IntN(599)
		if d >= s {
			d++
		}
		return s, d
	})
	a0, ab0 := c.n.Allocations, c.n.AllocatedBundles
	for b.Loop() {
		c.step()
	}
	reportPerEvent(b, c, a0, ab0)
}

// BenchmarkChurnFewPairs: 5,000 concurrent flows between only 16 machine
// pairs: bundling keeps the allocation at 16 bundles.
func BenchmarkChurnFewPairs(b *testing.B) {
	cfg := Config{Kind: TwoTier, Machines: machines(600, 20, 10*gbps), Oversubscription: 5}
	c := newChurn(b, cfg, 5000, func(r *rand.Rand) (int, int) {
		p := r.IntN(16)
		return p, 599 - p
	})
	a0, ab0 := c.n.Allocations, c.n.AllocatedBundles
	for b.Loop() {
		c.step()
	}
	reportPerEvent(b, c, a0, ab0)
}

// BenchmarkChurnRackLocal: 5,000 concurrent flows, each inside one rack:
// the flow/link graph splits into 30 components and an event recomputes
// only its own rack's.
func BenchmarkChurnRackLocal(b *testing.B) {
	cfg := Config{Kind: TwoTier, Machines: machines(600, 20, 10*gbps), Oversubscription: 5}
	c := newChurn(b, cfg, 5000, func(r *rand.Rand) (int, int) {
		rack := r.IntN(30)
		s, d := r.IntN(20), r.IntN(19)
		if d >= s {
			d++
		}
		return rack*20 + s, rack*20 + d
	})
	a0, ab0 := c.n.Allocations, c.n.AllocatedBundles
	for b.Loop() {
		c.step()
	}
	reportPerEvent(b, c, a0, ab0)
}

// fbCoflow is one coflow of the coflow-benchmark trace, parsed just enough
// to replay it (the full, validating reader is package coflow's).
type fbCoflow struct {
	arrival  float64
	mappers  []int
	reducers []int
	mb       []float64
}

func loadFB2010(tb testing.TB) (ports int, cs []fbCoflow) {
	tb.Helper()
	path := filepath.Join("..", "..", "shared", "traces", "FB2010-1Hr-150-0.txt")
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("FB2010 trace not available at %s: %v", path, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	sc.Scan()
	ports, _ = strconv.Atoi(strings.Fields(sc.Text())[0])
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		var c fbCoflow
		ms, _ := strconv.ParseFloat(fs[1], 64)
		c.arrival = ms / 1000
		nm, _ := strconv.Atoi(fs[2])
		for _, s := range fs[3 : 3+nm] {
			p, _ := strconv.Atoi(s)
			c.mappers = append(c.mappers, p)
		}
		for _, s := range fs[4+nm:] {
			p, mb, _ := strings.Cut(s, ":")
			pi, _ := strconv.Atoi(p)
			x, _ := strconv.ParseFloat(mb, 64)
			c.reducers = append(c.reducers, pi)
			c.mb = append(c.mb, x)
		}
		cs = append(cs, c)
	}
	return ports, cs
}

// replayFair runs the whole trace with per-flow max-min sharing on a
// non-blocking fabric of 1 Gbps ports and returns the last completion time.
func replayFair(tb testing.TB, ports int, cs []fbCoflow) (end float64, flows int, n *Network) {
	ms := make([]Machine, ports)
	for i := range ms {
		ms[i] = Machine{NICUp: gbps, NICDown: gbps}
	}
	n, err := New(Config{Machines: ms, Monitor: MonitorConfig{Interval: -1}})
	if err != nil {
		tb.Fatal(err)
	}
	done := func(c Completion) { end = c.Time }
	for _, c := range cs {
		n.AdvanceTo(c.arrival, done)
		for i, r := range c.reducers {
			per := c.mb[i] * (1 << 20) / float64(len(c.mappers))
			for _, m := range c.mappers {
				if m == r {
					continue // node-local: no flow
				}
				if _, err := n.Start(c.arrival, FlowSpec{Src: m, Dst: r, Size: per}); err != nil {
					tb.Fatal(err)
				}
				flows++
			}
		}
	}
	for n.ActiveFlows() > 0 {
		n.AdvanceTo(n.NextEvent(), done)
	}
	return end, flows, n
}

// BenchmarkFB2010Fair replays the full FB2010 coflow trace (526 coflows,
// 150 ports) with per-flow max-min fair sharing: the network-model part of
// `netsched coflow --policy fair`.
func BenchmarkFB2010Fair(b *testing.B) {
	ports, cs := loadFB2010(b)
	for b.Loop() {
		end, flows, n := replayFair(b, ports, cs)
		b.ReportMetric(float64(flows), "flows")
		b.ReportMetric(float64(n.Allocations), "allocations")
		b.ReportMetric(float64(n.AllocatedBundles)/float64(n.Allocations), "bundles/alloc")
		b.ReportMetric(float64(n.Shifts)/float64(n.Allocations), "shifts/alloc")
		b.ReportMetric(float64(n.Moves)/float64(n.Allocations), "moves/alloc")
		b.ReportMetric(end, "sim-seconds")
	}
}

// BenchmarkFB2010FairHead replays the first 200 coflows only: the same
// kind of work in under a second, for A/B comparisons of allocator changes with
// benchstat (-count 10) on a machine whose speed drifts over a full run.
func BenchmarkFB2010FairHead(b *testing.B) {
	ports, cs := loadFB2010(b)
	cs = cs[:min(len(cs), 200)]
	for b.Loop() {
		_, _, n := replayFair(b, ports, cs)
		b.ReportMetric(float64(n.AllocatedBundles)/float64(n.Allocations), "bundles/alloc")
	}
}
