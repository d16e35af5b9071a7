package corral

import (
	"errors"
	"os"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
	_ "github.com/netsched/netsched/trace/register"
)

// planOnly stops the run once Corral has planned.
type planOnly struct{ *Scheduler }

var errPlanned = errors.New("planned")

func (p planOnly) Plan(v sched.View, fc []sched.Forecast) error {
	if err := p.Scheduler.Plan(v, fc); err != nil {
		return err
	}
	return errPlanned
}

// On the JobPacker reproduction's batch (experiment/catalog/jobpacker/
// batch.yaml), Corral keeps almost every job on one rack: its LRF prices
// any shuffle across the 10:1 core above one rack's extra waves of short
// tasks. Measured: 992 of the 1,000 jobs on one rack, 8 on two
// (docs/reproductions/jobpacker.md, "Why our numbers differ", point 4).
func TestBatchPlanKeepsJobsOnOneRack(t *testing.T) {
	const trace = "../../../shared/traces/FB-2010_samples_24_times_1hr_0.tsv"
	if _, err := os.Stat(trace); err != nil {
		t.Skip("shared/traces not present")
	}
	doc := `
cluster: {racks: 20, machines_per_rack: 3, slots_per_machine: 20, nic: 10Gbps}
network: {topology: hybrid, rack_uplink: 3Gbps, rack_downlink: 3Gbps, ocs: {port_speed: 10Gbps, elephant: 112.5MB}}
dfs: {block: 64MB}
workload:
  trace: ` + trace + `
  format: swim-select
  options:
    max_jobs: 1000
    select_shuffle: {p: [0, 0.05, 0.5, 0.95, 1], values: [10MB, 100MB, 2.5GB, 82GB, 1TB]}
    arrival: batch
    recurring: 1
    size_scale: 0.1
`
	sc, err := scenario.Parse("batch.yaml", []byte(doc), ".")
	if err != nil {
		t.Fatal(err)
	}
	c := DefaultConfig()
	c.EPS = 3e9 / 8
	s := New(c)
	if _, err := sim.RunWith(sc, planOnly{s}); !errors.Is(err, errPlanned) {
		t.Fatalf("run: %v", err)
	}
	racks := map[int]int{}
	for _, in := range s.plan.Input {
		racks[len(in.Racks)]++
	}
	t.Logf("jobs per rack count: %v", racks)
	if racks[1] < 950 {
		t.Errorf("%d of 1000 jobs on one rack, want at least 950", racks[1])
	}
}
