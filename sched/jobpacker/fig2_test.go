package jobpacker_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
	_ "github.com/netsched/netsched/sched/queue"
)

// fig2 is Fig. 2's job: 20 maps writing 5 units (GB) each, 100 in all, and
// 4 reducers taking a quarter each, one per rack; maps are pinned to the
// racks' one machine perRack[r] at a time. Circuits carry 1 unit/s and
// flows of at least 1 unit are elephants; the EPS is 1 kB/s, so it moves
// under 10^-6 of a unit in a minute. Circuits are recomputed every 100 ms
// and a changed one is dark for 1 ms. The maps compute nothing and the
// reducers start when all maps are done (a barrier), so the job's time is
// its shuffle.
func fig2(perRack [4]int) string {
	var maps []string
	for r, n := range perRack {
		for range n {
			maps = append(maps, fmt.Sprintf("{compute: 0s, output: 5GB, pin: %d}", r))
		}
	}
	return `
cluster: {racks: 4, machines_per_rack: 1, slots_per_machine: 20, nic: 100GB/s}
network:
  topology: hybrid
  rack_uplink: 1kB/s
  rack_downlink: 1kB/s
  ocs: {port_speed: 1GB/s, interval: 100ms, delay: 1ms, elephant: 1GB}
workload:
  jobs:
    - id: fig2
      stages:
        - {id: map, tasks: [` + strings.Join(maps, ", ") + `]}
        - {id: reduce, after: map, tasks: [{compute: 0s, pin: 0}, {compute: 0s, pin: 1}, {compute: 0s, pin: 2}, {compute: 0s, pin: 3}]}
`
}

// Fig. 2 by hand, in the demand matrix's units. (a) Racks 1-4 run 16, 2,
// 1, 1 maps: rack 1 must send 20 to each of the other three through its
// one circuit port, 60 s however the circuits are arranged, while the
// other racks' 2.5 and 1.25 travel on other circuits meanwhile. (b) 5
// maps per rack: every rack sends 6.25 to each other rack, three rounds
// of a perfect matching, 18.75 s. The simulated OCS adds the first
// interval (0.1 s, before any circuit exists), 1 ms per circuit change
// (at most one per rack per 100 ms: 1%) and a tail where the remaining
// demand no longer forms a perfect matching: within 3% of the hand values.
// Both placements move the same 100 units: only the balance differs.
func TestFig2BalanceSkewness(t *testing.T) {
	skewed := schedtest.Run(t, fig2([4]int{16, 2, 1, 1}), mustFIFO(t))
	balanced := schedtest.Run(t, fig2([4]int{5, 5, 5, 5}), mustFIFO(t))
	a, b := jct(t, skewed), jct(t, balanced)
	if a < 60 || a > 60*1.03 {
		t.Errorf("(a) skewed: shuffle %g s, want 60 (+3%%)", a)
	}
	if b < 18.75 || b > 18.75*1.03 {
		t.Errorf("(b) balanced: shuffle %g s, want 18.75 (+3%%)", b)
	}
	if r := a / b; math.Abs(r/3.2-1) > 0.03 {
		t.Errorf("ratio %g, want 60/18.75 = 3.2", r)
	}
	// Cross-rack bytes: (a) 3 x 20 + 3 x 2.5 + 2 x 3 x 1.25 = 75; (b) 75.
	for _, r := range []float64{skewed.Summary.Bytes.OCS + skewed.Summary.Bytes.EPS, balanced.Summary.Bytes.OCS + balanced.Summary.Bytes.EPS} {
		if math.Abs(r-75e9) > 1 {
			t.Errorf("cross-rack bytes %g, want 75 GB", r)
		}
	}
}

func mustFIFO(t *testing.T) sched.Scheduler {
	s, err := sched.NewScheduler("fifo", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
