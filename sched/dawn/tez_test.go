package dawn_test

import (
	"testing"

	"github.com/netsched/netsched/sched/dawn"
	"github.com/netsched/netsched/sched/internal/schedtest"
)

// A Tez-style job (§3.2.3, Fig. 10): a fact scan writes 2 GB on each
// machine of rack 1, a dimension scan 3 GB in rack 0; the join reads the
// fact table scatter-gather and the dimension broadcast (each of its two
// tasks reads all 3 GB), and writes half of what it reads; agg reads the
// join. The join's data per rack counts the broadcast once per task:
// rack 0 holds 2 x 3 = 6 GB of what its tasks read, rack 1 4 GB, so its
// preferred rack is rack 0 and only the fact table crosses (4 GB); counted
// once, the dimension would lose (3 < 4) and 6 GB would cross. agg (the
// output stage, no next job) follows the join's output: nothing crosses.
func TestTezStagesFollowTheirParents(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 2, nic: 10Gbps}
network: {topology: two-tier, oversubscription: 1}
engine: {heartbeat: 1s}
workload:
  jobs:
    - id: q
      stages:
        - {id: fact, tasks: [{compute: 1s, output: 2GB, pin: 2}, {compute: 1s, output: 2GB, pin: 3}]}
        - {id: dim, tasks: [{compute: 1s, output: 3GB, pin: 0}]}
        - {id: join, after: [fact, {stage: dim, pattern: broadcast}], count: 2, compute: 1s, output_ratio: 0.5}
        - {id: agg, after: join, count: 1, compute: 1s}
`
	cfg := dawn.DefaultConfig()
	cfg.Balancing = false // a lone job: the idle rack would pull it over
	r := schedtest.Run(t, doc, dawn.New(cfg))
	if n := schedtest.PerMachine(r, "q", "join", 4); n[0]+n[1] != 2 {
		t.Errorf("join tasks per machine %v, want both in rack 0", n)
	}
	if n := schedtest.PerMachine(r, "q", "agg", 4); n[0]+n[1] != 1 {
		t.Errorf("agg per machine %v, want rack 0", n)
	}
	if b := r.Summary.Bytes.Total.CrossRack; !schedtest.Near(b, 4e9) {
		t.Errorf("cross-rack bytes %g, want 4 GB", b)
	}
}
