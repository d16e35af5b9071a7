package dawn_test

import (
	"testing"

	"github.com/netsched/netsched/sched/dawn"
	"github.com/netsched/netsched/sched/internal/schedtest"
)

// The starvation guard (§3.4). One container (machine 0, rack 0; machine
// 1 in rack 1 only stores data). H's three maps read splits on machines
// 0, 0 and 1: it prefers rack 0 at 100 MB of traffic. Z's thirty 2 s tasks
// read nothing (traffic 0, every rack preferred). Held saturated, Alg. 1
// takes Z first at every heartbeat: H's first map waits for Z's last
// (a task every 3 s: 2 s of compute, then the next heartbeat; about 90 s). With starve_after 10 s, H has gone longer than that without
// a container and goes first at the next heartbeat after 10 s.
func TestStarvationGuard(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 1, nic: 1Gbps, machines: [{index: 1, slots: 0}]}
network: {topology: two-tier, oversubscription: 1}
dfs: {replicas: 1}
engine: {heartbeat: 1s}
workload:
  jobs:
    - {id: Z, stages: [{id: map, count: 30, compute: 2s}]}
    - {id: H, stages: [{id: map, count: 3, input: 100MB, compute: 1s}]}
`
	at := map[string][][]int{"H": {{0}, {0}, {1}}}
	for _, c := range []struct {
		starve   float64
		min, max float64 // H's first start
	}{{0, 85, 95}, {10, 10, 13}} {
		cfg := dawn.DefaultConfig()
		cfg.Order = "least-traffic"
		cfg.StarveAfter = c.starve
		d := dawn.New(cfg)
		r := schedtest.Run(t, doc, placed{Scheduler: d, byTask: at})
		first := schedtest.Tasks(r, "H", "map")[0].Start
		for _, tr := range schedtest.Tasks(r, "H", "map") {
			first = min(first, tr.Start)
		}
		if first < c.min || first > c.max {
			t.Errorf("starve_after %g: H's first map started at %g s, want %g-%g s", c.starve, first, c.min, c.max)
		}
		if got := d.Stats().Starved; (got > 0) != (c.starve > 0) {
			t.Errorf("starve_after %g: %d containers given by the guard", c.starve, got)
		}
	}
}

// User-level fairness (§3.4). Two containers in one rack (no traffic
// anywhere: every job ties). User a submits A1 and A2, user b then B, each
// four 10 s tasks. Without fairness ties go by arrival: A1 and A2 run
// first, four rounds of two tasks of about 11 s (10 s, then the next
// heartbeat), and B starts at about 44 s. With fair_users the second container of the
// first heartbeat goes to b (no task running): B starts at once.
func TestFairUsers(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbps}
engine: {heartbeat: 1s}
workload:
  jobs:
    - {id: A1, user: a, stages: [{id: map, count: 4, compute: 10s}]}
    - {id: A2, user: a, stages: [{id: map, count: 4, compute: 10s}]}
    - {id: B, user: b, stages: [{id: map, count: 4, compute: 10s}]}
`
	for _, c := range []struct {
		fair     bool
		min, max float64
	}{{false, 40, 46}, {true, 0, 1}} {
		cfg := dawn.DefaultConfig()
		cfg.FairUsers = c.fair
		r := schedtest.Run(t, doc, dawn.New(cfg))
		first := schedtest.Tasks(r, "B", "map")[0].Start
		for _, tr := range schedtest.Tasks(r, "B", "map") {
			first = min(first, tr.Start)
		}
		if first < c.min || first > c.max {
			t.Errorf("fair_users %v: B's first task started at %g s, want %g-%g s", c.fair, first, c.min, c.max)
		}
	}
}
