package netpolicy_test

import (
	"strings"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	_ "github.com/netsched/netsched/sched/all"
	"github.com/netsched/netsched/sim"
)

// Two jobs' reducers on machine 0 each fetch 2MB over its 1MB/s downlink,
// from machines 1 and 2. Fair sharing ends both at t=4; the fifo network
// policy serves A first (t=2), then B (t=4).
var twoJobs = pair("2MB", "2MB", "0s")

func runWith(t *testing.T, sched string) (*metrics.Result, error) {
	t.Helper()
	sc, err := scenario.Parse(t.Name()+".yaml", []byte(twoJobs+"scheduler: "+sched+"\n"), ".")
	if err != nil {
		t.Fatalf("scenario: %v", err)
	}
	sc.Check = true
	return sim.Run(sc)
}

func TestNetworkPolicyCombinesWithScheduler(t *testing.T) {
	for _, c := range []struct {
		sched string
		a, b  float64
	}{
		{"fifo", 4, 4},
		{"{name: fifo, network: fair}", 4, 4},
		{"{name: fifo, network: fifo}", 2, 4},
		{"{name: fair, network: fifo}", 2, 4},
		{"{name: fifo, network: scf, network_params: {first: 1MB}}", 4, 4}, // equal sizes: one bin
	} {
		r, err := runWith(t, c.sched)
		if err != nil {
			t.Fatalf("%s: %v", c.sched, err)
		}
		got := map[string]float64{}
		for _, j := range r.Jobs {
			got[j.ID] = j.JCT
		}
		if got["A"] != c.a || got["B"] != c.b {
			t.Errorf("%s: JCTs A=%g B=%g, want %g and %g", c.sched, got["A"], got["B"], c.a, c.b)
		}
	}
}

// A bad network choice is reported when the scenario loads, at its line.
func TestUnknownNetworkPolicy(t *testing.T) {
	for _, c := range []struct{ sched, want string }{
		{"{name: fifo, network: varys2}", `:15:34: scheduler.network: unknown network policy "varys2"`},
		{"{name: fifo, network: scf, network_params: {factor: 1}}", ":15:64: scheduler.network_params.factor: network policy scf: parameter factor"},
		{"{name: fifo, network_params: {factor: 1}}", ":15:41: scheduler.network_params: network_params given without network"},
	} {
		_, err := scenario.Parse(t.Name()+".yaml", []byte(twoJobs+"scheduler: "+c.sched+"\n"), ".")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.sched, err, c.want)
		}
	}
}
