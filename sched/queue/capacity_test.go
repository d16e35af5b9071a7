package queue_test

import (
	"testing"

	"github.com/netsched/netsched/sched/internal/schedtest"
)

// Capacities 0.7/0.3 of 10 slots: every second all slots free and are
// refilled least used/guaranteed first, ending at 7 and 3. A's 100 tasks
// take 100/7 s, so [0, 14) is saturated.
func TestCapacitySplit(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 5, slots_per_machine: 2, nic: 1GB/s}
output: {tasks: true}
workload:
  jobs:
    - {id: A, queue: a, stages: [{id: work, count: 100, compute: 1s}]}
    - {id: B, queue: b, stages: [{id: work, count: 100, compute: 1s}]}
scheduler: {name: capacity, params: {queues: [{name: a, capacity: 0.7}, {name: b, capacity: 0.3}]}}
`)
	splitEachSecond(t, r, 14, map[string]int{"A": 7, "B": 3})
}

// Alone, a queue grows past its capacity up to its maximum capacity, and a
// user limit factor caps one user at that multiple of the guarantee.
func TestCapacityLimits(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 5, slots_per_machine: 2, nic: 1GB/s}
workload:
  jobs:
    - {id: A, user: alice, queue: a, stages: [{id: work, count: 60, compute: 1s}]}
scheduler: {name: capacity, params: {queues: [{name: a, capacity: 0.2, LIMIT}, {name: b, capacity: 0.8}]}}
`
	for _, c := range []struct {
		limit string
		jct   float64
	}{
		{"maximum_capacity: 1", 6},      // 10 slots
		{"maximum_capacity: 0.6", 10},   // 6 slots
		{"user_limit_factor: 1.5", 20},  // 3 slots
		{"user_limit_factor: 0.01", 60}, // at least 1 slot
	} {
		r := run(t, replace(doc, "LIMIT", c.limit))
		if got := jct(t, r, "A"); !schedtest.Near(got, c.jct) {
			t.Errorf("%s: JCT of A = %v, want %v", c.limit, got, c.jct)
		}
	}
}

// In a fifo leaf the earlier job takes every slot the queue can have.
func TestCapacityLeafFifo(t *testing.T) {
	r := run(t, `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1GB/s}
output: {tasks: true}
workload:
  jobs:
    - {id: A, arrival: 0s, stages: [{id: work, count: 6, compute: 1s}]}
    - {id: B, arrival: 0.5s, stages: [{id: work, count: 6, compute: 1s}]}
scheduler: capacity
`)
	if !before(r, "A", "B") {
		t.Fatalf("A's tasks start at %v, B's at %v; want all of A's first", starts(r, "A"), starts(r, "B"))
	}
}
