package sim_test

import (
	"errors"
	"testing"

	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
)

// overloaded reports every link at twice its capacity: a network model
// that breaks the engine's link invariant.
type overloaded struct{ network.API }

func (o overloaded) LinkLoad() []float64 {
	load := o.API.LinkLoad()
	for i, l := range o.API.Links() {
		load[i] = 2*l.Capacity + 1
	}
	return load
}

// A failed invariant in check mode is told from a rejected input by
// sched.ErrCheck (FuzzRun fails on it); its message is unchanged.
func TestInvariantFailureWrapsErrCheck(t *testing.T) {
	defer sim.SetNewNetwork(func(cfg network.Config) (network.API, error) {
		n, err := network.New(cfg)
		return overloaded{n}, err
	})()
	sc, err := scenario.Parse("check.yaml", []byte(`
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbps}
workload: {jobs: [{id: A, stages: [{id: m, count: 2, compute: 1s, input: 1MB}]}]}
`), ".")
	if err != nil {
		t.Fatal(err)
	}
	sc.Check = true
	_, err = sim.Run(sc)
	if !errors.Is(err, sched.ErrCheck) {
		t.Fatalf("err = %v, want a failed check (sched.ErrCheck)", err)
	}
	const want = "t=0s: check: link "
	if got := err.Error(); len(got) < len(want) || got[:len(want)] != want {
		t.Fatalf("err = %q, want it to start %q", got, want)
	}
}
