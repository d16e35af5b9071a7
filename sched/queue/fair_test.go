package queue_test

import (
	"testing"

	"github.com/netsched/netsched/sched/internal/schedtest"
)

// Two queues with weights 2:1, each with one job of many 1 s tasks, on six
// slots. Every second all slots free at once and are refilled in fair order:
// q1 (0/2) q2 (0/1) -> q1, q2, then q1 (0.5 vs 1), q1 (1 vs 1: name), q2,
// q1: 4 slots to q1 and 2 to q2 while both have work (A's 60 tasks take 15 s).
const weightedCluster = `
cluster: {racks: 1, machines_per_rack: 3, slots_per_machine: 2, nic: 1GB/s}
output: {tasks: true}
workload:
  jobs:
    - {id: A, user: alice, queue: q1, stages: [{id: work, count: 60, compute: 1s}]}
    - {id: B, user: bob, queue: q2, stages: [{id: work, count: 60, compute: 1s}]}
`

func checkTwoToOne(t *testing.T, doc string) {
	t.Helper()
	r := run(t, doc)
	splitEachSecond(t, r, 15, map[string]int{"A": 4, "B": 2})
	if got := jct(t, r, "A"); !schedtest.Near(got, 15) {
		t.Fatalf("JCT of A = %v, want 15", got)
	}
	// Alone from t=15, B has 60-30 tasks left on 6 slots: 5 more seconds.
	if got := jct(t, r, "B"); !schedtest.Near(got, 20) {
		t.Fatalf("JCT of B = %v, want 20", got)
	}
}

func TestFairQueueWeights(t *testing.T) {
	checkTwoToOne(t, weightedCluster+`
scheduler: {name: fair, params: {queues: [{name: q1, weight: 2}, {name: q2, weight: 1}]}}
`)
}

// The same split from user weights inside one queue, which the jobs name by
// name and by path.
func TestFairUserWeights(t *testing.T) {
	checkTwoToOne(t, `
cluster: {racks: 1, machines_per_rack: 3, slots_per_machine: 2, nic: 1GB/s}
output: {tasks: true}
workload:
  jobs:
    - {id: A, user: alice, queue: shared, stages: [{id: work, count: 60, compute: 1s}]}
    - {id: B, user: bob, queue: root.shared, stages: [{id: work, count: 60, compute: 1s}]}
scheduler: {name: fair, params: {queues: [{name: shared}], user_weights: {alice: 2}}}
`)
}

// Without weights the same cluster splits 3:3.
func TestFairEqualWeights(t *testing.T) {
	r := run(t, weightedCluster+"scheduler: fair\n")
	splitEachSecond(t, r, 20, map[string]int{"A": 3, "B": 3})
}

// A min share makes a queue needy, which puts it first whatever the
// weights: q2 (weight 1, min_share 4) takes 4 of 6 slots from q1 (weight 10)
// until it has 4 running; q1 then takes the remaining 2.
func TestFairMinShare(t *testing.T) {
	r := run(t, weightedCluster+`
scheduler: {name: fair, params: {queues: [{name: q1, weight: 10}, {name: q2, weight: 1, min_share: 4}]}}
`)
	splitEachSecond(t, r, 15, map[string]int{"A": 2, "B": 4})
}

// A max share caps a queue even when the cluster is idle otherwise.
func TestFairMaxShare(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 3, slots_per_machine: 2, nic: 1GB/s}
output: {tasks: true}
workload:
  jobs:
    - {id: A, queue: capped, stages: [{id: work, count: 10, compute: 1s}]}
scheduler: {name: fair, params: {queues: [{name: capped, max_share: 2}]}}
`)
	if got := jct(t, r, "A"); !schedtest.Near(got, 5) {
		t.Fatalf("JCT of A = %v, want 5 (10 tasks, 2 at a time)", got)
	}
}

// Policy fifo inside a queue: the earlier job's tasks all start before the
// later job's; with policy fair the two interleave.
func TestFairLeafPolicy(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1GB/s}
output: {tasks: true}
workload:
  jobs:
    - {id: A, arrival: 0s, queue: q, stages: [{id: work, count: 10, compute: 1s}]}
    - {id: B, arrival: 0.5s, queue: q, stages: [{id: work, count: 10, compute: 1s}]}
scheduler: {name: fair, params: {queues: [{name: q, policy: POLICY}]}}
`
	r := run(t, replace(doc, "POLICY", "fifo"))
	if !before(r, "A", "B") {
		t.Fatalf("fifo: A's tasks start at %v, B's at %v; want all of A's first", starts(r, "A"), starts(r, "B"))
	}
	if got := jct(t, r, "A"); !schedtest.Near(got, 5) {
		t.Fatalf("fifo: JCT of A = %v, want 5", got)
	}
	if r = run(t, replace(doc, "POLICY", "fair")); before(r, "A", "B") {
		t.Fatalf("fair: all of A's tasks start before B's; want them interleaved")
	}
}

// Hand-computed fair case: one machine with 2 slots. A (arrival 0) has four
// 2 s tasks, B (arrival 1 s) two 1 s tasks.
//
//	t=0  A1, A2 start (B not there yet)
//	t=2  A1, A2 end; both at usage 0: A first (earlier start) -> A3,
//	     then B (0 < 1) -> B1
//	t=3  B1 ends; A uses 1, B 0 -> B2
//	t=4  A3, B2 end; B is done (JCT 4-1 = 3); A4 starts
//	t=6  A4 ends: JCT of A = 6
//
// FIFO instead runs A3, A4 at t=2 and B1, B2 at t=4: JCTs 4 and 4.
func TestFairHandComputed(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 2, nic: 1GB/s}
output: {tasks: true}
workload:
  jobs:
    - {id: A, arrival: 0s, stages: [{id: work, count: 4, compute: 2s}]}
    - {id: B, arrival: 1s, stages: [{id: work, count: 2, compute: 1s}]}
scheduler: SCHED
`
	for _, c := range []struct {
		sched      string
		jctA, jctB float64
		startsA    []float64
		startsB    []float64
	}{
		{"fair", 6, 3, []float64{0, 0, 2, 4}, []float64{2, 3}},
		{"fifo", 4, 4, []float64{0, 0, 2, 2}, []float64{4, 4}},
	} {
		r := run(t, replace(doc, "SCHED", c.sched))
		if a, b := jct(t, r, "A"), jct(t, r, "B"); !schedtest.Near(a, c.jctA) || !schedtest.Near(b, c.jctB) {
			t.Fatalf("%s: JCTs A=%v B=%v, want %v and %v", c.sched, a, b, c.jctA, c.jctB)
		}
		if a, b := starts(r, "A"), starts(r, "B"); !same(a, c.startsA) || !same(b, c.startsB) {
			t.Fatalf("%s: starts A=%v B=%v, want %v and %v", c.sched, a, b, c.startsA, c.startsB)
		}
	}
}

// Hierarchy: root -> {prod (weight 1), research (weight 1) -> {alice, bob}}.
// prod gets half the 8 slots; alice and bob split research's half.
func TestFairHierarchy(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 4, slots_per_machine: 2, nic: 1GB/s}
output: {tasks: true}
workload:
  jobs:
    - {id: P, queue: prod, stages: [{id: work, count: 40, compute: 1s}]}
    - {id: A, queue: alice, stages: [{id: work, count: 40, compute: 1s}]}
    - {id: B, queue: root.research.bob, stages: [{id: work, count: 40, compute: 1s}]}
scheduler:
  name: fair
  params:
    auto_create_queues: false
    queues:
      - {name: prod}
      - {name: research}
      - {name: alice, parent: research}
      - {name: bob, parent: research}
`)
	splitEachSecond(t, r, 10, map[string]int{"P": 4, "A": 2, "B": 2})
}

func same(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !schedtest.Near(a[i], b[i]) {
			return false
		}
	}
	return true
}

// Demand is capped by max share at every level (updateDemand), which
// changes how needy a parent is: p's only child c may hold 2 slots, so p's
// demand is 2 and it stops being needy at 2 running, not at its min share 4.
// On 4 slots: p (0/2) ties q (0/5) and wins by name, then q (0/5 < 1/2),
// q (1/5 < 1/2), q (2/5 < 1/2): 1 slot for A and 3 for B every second.
// Without the cap p would be at 1/4 and take the fourth slot.
func TestFairDemandCappedByMaxShare(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1GB/s}
output: {tasks: true}
workload:
  jobs:
    - {id: A, queue: c, stages: [{id: work, count: 20, compute: 1s}]}
    - {id: B, queue: q, stages: [{id: work, count: 60, compute: 1s}]}
scheduler:
  name: fair
  params:
    queues: [{name: p, min_share: 4}, {name: c, parent: p, max_share: 2}, {name: q, min_share: 5}]
`)
	splitEachSecond(t, r, 10, map[string]int{"A": 1, "B": 3})
}
