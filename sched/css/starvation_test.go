package css_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/sched/css"
	"github.com/netsched/netsched/sched/internal/schedtest"
)

// starving: one one-slot host. A (3 s) runs from 0; L (5 s) arrives at
// 0.5 and queues; a 1 s job S_i arrives every second from 1 to 12.
func starving() string {
	var b strings.Builder
	b.WriteString("cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 1, nic: 1GB/s}\nworkload:\n  jobs:\n")
	b.WriteString("    - {id: A, arrival: 0s, stages: [{id: s, tasks: [{compute: 3s}]}]}\n")
	b.WriteString("    - {id: L, arrival: 0.5s, stages: [{id: s, tasks: [{compute: 5s}]}]}\n")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&b, "    - {id: S%d, arrival: %ds, stages: [{id: s, tasks: [{compute: 1s}]}]}\n", i, i)
	}
	return b.String()
}

// Without the guard MCTF always puts the newest 1 s job before L (CCT
// W + 1 < W + 5): the host runs S1..S12 from 3 to 15 and L last, 15-20.
// With δ = 4 s, L's wait passes δ at 4.5; the next STSP (S5 arrives at 5)
// places it first, and the host, free at 5 when S2 ends, runs it 5-10;
// the S jobs queued since 3 and 4 follow.
func TestStarvationThreshold(t *testing.T) {
	for _, c := range []struct {
		delta float64
		start float64
	}{{0, 15}, {4, 5}} {
		cfg := css.DefaultConfig()
		cfg.Starvation = c.delta
		s := css.New(cfg)
		r := run(t, starving(), s)
		if got := schedtest.Tasks(r, "L", "s")[0].Start; !near(got, c.start) {
			t.Errorf("δ = %g: L starts at %g, want %g", c.delta, got, c.start)
		}
		if c.delta > 0 && s.Stats().Starving == 0 {
			t.Errorf("δ = %g: no cotask counted as starving", c.delta)
		}
	}
}
