package jobpacker_test

import (
	"os"
	"testing"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/jobpacker"
	_ "github.com/netsched/netsched/trace/register"
)

// swimScaled is the reproduction's scaled setting (experiment/catalog/
// jobpacker) with the first n jobs of the Table 1 selection.
func swimScaled(n int, arrival string, recurring float64) string {
	return `
cluster: {racks: 20, machines_per_rack: 3, slots_per_machine: 20, nic: 10Gbps}
network: {topology: hybrid, rack_uplink: 3Gbps, rack_downlink: 3Gbps, ocs: {port_speed: 10Gbps, interval: 1s, delay: 10ms, elephant: 112.5MB}}
dfs: {block: 64MB, replicas: 3}
workload:
  trace: ../../../shared/traces/FB-2010_samples_24_times_1hr_0.tsv
  format: swim-select
  options:
    max_jobs: ` + itoa(n) + `
    select_shuffle: {p: [0, 0.05, 0.5, 0.95, 1], values: [10MB, 100MB, 2.5GB, 82GB, 1TB]}
    ` + arrival + `
    recurring: ` + ftoa(recurring) + `
    size_scale: 0.1
`
}

// JobPacker and Corral on 40 SWIM jobs of the reproduction's workload, in
// check mode (the engine asserts its invariants after every instant): a
// batch of recurring jobs, and recurring and ad-hoc jobs arriving over
// ten minutes. Every job finishes.
func TestSWIMCheckMode(t *testing.T) {
	if _, err := os.Stat("../../../shared/traces/FB-2010_samples_24_times_1hr_0.tsv"); err != nil {
		t.Skip("shared/traces not present")
	}
	for _, c := range []struct {
		name, arrival string
		recurring     float64
	}{{"batch", "arrival: batch", 1}, {"mix", "arrival: uniform\n    arrival_window: 10m", 0.5}} {
		doc := swimScaled(40, c.arrival, c.recurring)
		jp := jobpacker.DefaultConfig()
		jp.Elephant, jp.OCS, jp.EPS = 112.5e6, 10e9/8, 3e9/8
		corral, err := sched.NewScheduler("corral", map[string]any{"eps_bandwidth": "3Gbps"})
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range map[string]sched.Scheduler{"jobpacker": jobpacker.New(jp), "corral": corral} {
			res := schedtest.Run(t, doc, s)
			if len(res.Jobs) != 40 {
				t.Errorf("%s %s: %d of 40 jobs finished", c.name, name, len(res.Jobs))
			}
		}
	}
}
