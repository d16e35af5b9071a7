package network

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/netsched/netsched/network/matching"
)

// A hybrid network of many racks keeps its OCS demand per rack pair with
// elephants, not in a racks x racks matrix: 100,000 racks would need 80 GB
// for it (the run died in the out-of-memory killer), 10,000 racks 800 MB and
// a matching of hours per reconfiguration (SIGTERM went unheard for 868 s).
func TestOCSManyRacksMemory(t *testing.T) {
	const racks = 20_000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n := mustNew(t, Config{Kind: Hybrid, Machines: machines(racks, 1, 1000), RackUp: 10, RackDown: 10,
		OCS: OCSConfig{PortSpeed: 100, Interval: 1, Delay: 0.1, ElephantThreshold: 500}})
	runtime.ReadMemStats(&after)
	// About 1 KB per rack for its machine, links and ports; the matrix
	// alone was 3.2 GB.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("a hybrid network of %d racks allocated %d MB, want at most 64 MB", racks, grew>>20)
	}
	runtime.KeepAlive(n)
}

// With more than exactMatchingRacks racks sending elephants,
// reconfigurations are greedy (fast) and give a valid matching, which
// carries every elephant to its end.
func TestOCSManyRacksGreedy(t *testing.T) {
	const racks = 3 * exactMatchingRacks
	n := mustNew(t, Config{Kind: Hybrid, Machines: machines(racks, 1, 1000), RackUp: 10, RackDown: 10,
		OCS: OCSConfig{PortSpeed: 100, Interval: 1, Delay: 0.1, ElephantThreshold: 500}})
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range racks {
		if j := rng.IntN(racks); j != i {
			mustStart(t, n, 0, FlowSpec{Src: i, Dst: j, Size: 500 + float64(rng.IntN(1000))})
		}
	}
	runUntil(n, 1)
	c, _ := n.Circuits()
	circuits, seen := 0, map[int]bool{}
	for i, j := range c {
		if j < 0 {
			continue
		}
		if seen[j] || j == i {
			t.Fatalf("rack %d's circuit goes to %d: receive port used twice or a circuit to itself", i, j)
		}
		seen[j] = true
		circuits++
	}
	if circuits < racks/3 {
		t.Errorf("%d circuits for %d racks each sending an elephant, want at least %d", circuits, racks, racks/3)
	}
	runUntil(n, 1000)
	if a := n.ActiveFlows(); a != 0 {
		t.Errorf("%d flows still active at t=1000", a)
	}
}

// On a large network the matching is exact while at most
// exactMatchingRacks racks send or receive elephants: the same total as
// the dense matrix of every rack gives.
func TestOCSSparseMatchingIsExact(t *testing.T) {
	const racks = exactMatchingRacks + 40
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 5 {
		var edges []matching.Edge
		dense := make([][]float64, racks)
		for i := range dense {
			dense[i] = make([]float64, racks)
		}
		for range 300 {
			i, j := rng.IntN(racks/2), rng.IntN(racks/2)+racks/3
			if i == j {
				continue
			}
			w := rng.Float64() * 1e9
			dense[i][j] += w
			edges = append(edges, matching.Edge{Row: i, Col: j, Weight: w})
		}
		_, want, err := matching.MaxWeight(dense)
		if err != nil {
			t.Fatal(err)
		}
		// matchSparse sums the pairs first, as here.
		sum := map[[2]int]float64{}
		for _, e := range edges {
			sum[[2]int{e.Row, e.Col}] += e.Weight
		}
		edges = edges[:0]
		for k, w := range sum {
			edges = append(edges, matching.Edge{Row: k[0], Col: k[1], Weight: w})
		}
		rows, cols := endpoints(edges)
		assign := matchAmong(racks, edges, rows, cols)
		got := 0.0
		for i, j := range assign {
			if j >= 0 {
				got += dense[i][j]
			}
		}
		if math.Abs(got-want) > 1e-9*want {
			t.Errorf("trial %d: the matching among %d x %d racks carries %g, the dense one %g", trial, len(rows), len(cols), got, want)
		}
	}
}
