package sim_test

import (
	"reflect"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	_ "github.com/netsched/netsched/sched/nas"
	"github.com/netsched/netsched/sim"
)

// Ticks passed in one step (RepeatTicker) give the same run as ticks taken
// one by one: NAS, whose tick recomputes its threshold, on jobs separated by
// long idle and transfer-bound stretches over slow links, with heartbeats.
func TestRepeatTicksAreExact(t *testing.T) {
	const doc = `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 2, nic: 2Mbps}
network: {topology: two-tier, rack_uplink: 1Mbps, rack_downlink: 1Mbps}
engine: {heartbeat: 1s}
workload:
  jobs:
    - {id: A, arrival: 0s, stages: [{id: m, count: 3, input: 30MB, compute: 2s, output_ratio: 1}, {id: r, after: m, count: 2, compute: 5s}]}
    - {id: B, arrival: 700s, stages: [{id: m, count: 2, input: 10MB, compute: 1s, output_ratio: 2}, {id: r, after: m, count: 1, compute: 1s}]}
    - {id: C, arrival: 5000.5s, stages: [{id: m, count: 4, input: 5MB, compute: 3s, output_ratio: 0.5}, {id: r, after: m, count: 3, compute: 2s}]}
scheduler: nas
`
	run := func() any {
		sc, err := scenario.Parse("ticks.yaml", []byte(doc), ".")
		if err != nil {
			t.Fatal(err)
		}
		sc.Check = true
		res, err := sim.Run(sc)
		if err != nil {
			t.Fatal(err)
		}
		res.Timing = metrics.Timing{}
		return res
	}
	batched := run()
	restore := sim.TakeEveryTick()
	defer restore()
	one := run()
	if !reflect.DeepEqual(batched, one) {
		t.Errorf("ticks in one step:\n%+v\none by one:\n%+v", batched, one)
	}
}
