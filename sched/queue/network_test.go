package queue_test

import (
	"testing"

	"github.com/netsched/netsched/sched/internal/schedtest"
)

// Two jobs, each a map on machine 1 writing 2MB and a reducer on machine 0,
// over 1MB/s NICs: both reducers fetch over machine 1's uplink at t=0.
// network: fifo gives A (arrived first) strict priority: A's fetch ends at
// 2 s, B's at 4 s, and with 1 s of compute the JCTs are 3 and 5. Max-min
// sharing gives both 0.5MB/s: both fetches end at 4 s, both JCTs are 5.
func TestNetworkFifo(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1MB/s}
network: {topology: nonblocking}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, tasks: [{compute: 0s, output: 2MB, pin: 1}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 0}]}
    - id: B
      stages:
        - {id: map, tasks: [{compute: 0s, output: 2MB, pin: 1}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 0}]}
scheduler: {name: SCHED, params: {network: NET}}
`
	for _, sched := range []string{"fifo", "fair", "capacity", "delay"} {
		for _, c := range []struct {
			net        string
			jctA, jctB float64
		}{{"fifo", 3, 5}, {"fair", 5, 5}} {
			r := run(t, replace(replace(doc, "SCHED", sched), "NET", c.net))
			if a, b := jct(t, r, "A"), jct(t, r, "B"); !schedtest.Near(a, c.jctA) || !schedtest.Near(b, c.jctB) {
				t.Errorf("%s with network %s: JCTs A=%v B=%v, want %v and %v", sched, c.net, a, b, c.jctA, c.jctB)
			}
		}
	}
}
