package sim_test

import (
	"strings"
	"testing"
)

// Per-rack transfers (network.transfers: per-rack) on a hand-made run. Two
// racks of two machines, 1MB/s NICs, 10MB/s rack links. Maps on m0 (4MB of
// output) and m1 (0.2MB) in rack 0, one reducer on each machine of rack 1,
// each fetching half of every map's output.
//
//	exact: four flows. m0's NIC carries two at 0.5MB/s; m1's 0.1MB flows
//	take the rest of the reducers' NICs and end at 1.2; m0's 2MB end at
//	1 + 2/0.5 = 5; the reducers (1 s of compute) end at 6.
//	per-rack: one flow from rack 0 per reducer, 2.1MB at its NIC's 1MB/s,
//	m0's NIC left out: input done at 3.1, reducers end at 4.1.
//
// Without m1's output the rack has one source machine, and the per-rack
// model keeps the exact flow from m0: the reducers end at 6 in both.
const transfersRun = `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 1, nic: 1MB/s}
network: {topology: two-tier, rack_uplink: 10MB/s, rack_downlink: 10MB/s%s}
output: {flows: true}
scheduler: fifo
workload:
  jobs:
    - id: A
      stages:
        - {id: map, tasks: [{compute: 1s, output: 4MB, pin: 0}, {compute: 1s, output: %s, pin: 1}]}
        - {id: reduce, after: [{stage: map, slowstart: 1}], tasks: [{compute: 1s, pin: 2}, {compute: 1s, pin: 3}]}
`

func TestTransfersPerRack(t *testing.T) {
	for _, c := range []struct {
		transfers, m1 string
		m1Bytes       float64
		flows         int
		end           float64
	}{
		{"", "0.2MB", 0.2e6, 4, 6},
		{", transfers: per-machine", "0.2MB", 0.2e6, 4, 6},
		{", transfers: per-rack", "0.2MB", 0.2e6, 2, 4.1},
		{"", "0B", 0, 2, 6},
		{", transfers: per-rack", "0B", 0, 2, 6},
	} {
		r := run(t, strings.Replace(strings.Replace(transfersRun, "%s", c.transfers, 1), "%s", c.m1, 1))
		if len(r.Flows) != c.flows {
			t.Errorf("%q, m1 %s: %d flows, want %d", c.transfers, c.m1, len(r.Flows), c.flows)
		}
		bytes := 0.0
		for _, f := range r.Flows {
			bytes += f.Bytes
		}
		if want := 4e6 + c.m1Bytes; !near(bytes, want) {
			t.Errorf("%q, m1 %s: flows carried %g bytes, want %g", c.transfers, c.m1, bytes, want)
		}
		if got := jct(t, r, "A"); !near(got, c.end) {
			t.Errorf("%q, m1 %s: job ends at %g, want %g", c.transfers, c.m1, got, c.end)
		}
	}
}
