package queue_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sim"
)

// benchJobs: 400 map-reduce jobs from 20 users in 4 queues on 200 machines
// (800 slots), arriving faster than they finish so that hundreds are
// active at once.
func benchJobs(sched string) string {
	var b strings.Builder
	b.WriteString(`
cluster: {racks: 10, machines_per_rack: 20, slots_per_machine: 4, nic: 10Gbps}
network: {topology: two-tier, oversubscription: 4}
workload:
  jobs:
`)
	for i := range 400 {
		fmt.Fprintf(&b, "    - {id: j%03d, arrival: %gs, user: u%d, queue: q%d, stages: [{id: map, count: %d, input: 64MB, compute: 5s, output: 16MB}, {id: red, after: map, count: %d, compute: 2s}]}\n",
			i, 0.1*float64(i), i%20, i%4, 5+(i*37)%60, 1+i%8)
	}
	b.WriteString("scheduler: " + sched + "\n")
	return b.String()
}

// Each benchmark simulates the whole workload; ns/decision is the wall time
// per task placed, engine included.
func BenchmarkSchedulers(b *testing.B) {
	const capacityQueues = `{name: capacity, params: {queues: [{name: q0, capacity: 0.4}, {name: q1, capacity: 0.3}, {name: q2, capacity: 0.2}, {name: q3, capacity: 0.1}]}}`
	for _, sched := range []struct{ name, spec string }{
		{"fifo", "fifo"},
		{"fair", "fair"},
		{"fair-users", "{name: fair, params: {user_weights: {u0: 2}}}"},
		{"fair-locality", "{name: fair, params: {locality_node: 0.5, locality_rack: 0.5}}"},
		{"capacity", capacityQueues},
		{"delay-skip", "delay"},
		{"delay-wait", "{name: delay, params: {variant: wait}}"},
	} {
		b.Run(sched.name, func(b *testing.B) {
			sc := schedtest.Parse(b, benchJobs(sched.spec))
			sc.Check = false
			decisions := 0
			for b.Loop() {
				res, err := sim.Run(sc)
				if err != nil {
					b.Fatal(err)
				}
				decisions += res.Timing.Decisions
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions), "ns/decision")
		})
	}
}
