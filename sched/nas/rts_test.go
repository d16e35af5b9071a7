package nas_test

import (
	"testing"

	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/nas"
)

// CA-RTS places reducers in proportion to map output per rack. Two racks
// of one 4-container machine; J1's four 1 s maps (10 MB output each) are
// pinned 3 on machine 0, 1 on machine 1; J2's the other way round. Both
// jobs' 4 reducers become waiting at 1 s with all 8 containers free.
// ReduceNum: J1 3 on rack 0, 1 on rack 1; J2 1 and 3. Both jobs are
// medium with equal shuffle, so a job under its ReduceNum on the rack goes
// first, the earlier job on ties: rack 0 gets J1, J1, J1 then J2 (J1 is
// over), rack 1 J1 then J2, J2, J2, whichever machine is offered first.
// Without CA-RTS the first machine offered takes all of J1's reducers.
func TestCARTSProportionalReducers(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 4, nic: 1Gbps}
network: {topology: two-tier, oversubscription: 1}
workload:
  jobs:
    - id: J1
      stages:
        - {id: map, tasks: [{compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 1}]}
        - {id: reduce, after: map, count: 4, compute: 1s}
    - id: J2
      stages:
        - {id: map, tasks: [{compute: 1s, output: 10MB, pin: 0}, {compute: 1s, output: 10MB, pin: 1}, {compute: 1s, output: 10MB, pin: 1}, {compute: 1s, output: 10MB, pin: 1}]}
        - {id: reduce, after: map, count: 4, compute: 1s}
scheduler: nas
`
	r := schedtest.Run(t, doc, nas.New(nas.DefaultConfig()))
	if n := schedtest.PerMachine(r, "J1", "reduce", 2); n[0] != 3 || n[1] != 1 {
		t.Fatalf("CA-RTS: J1 reducers per rack %v, want [3 1] like its map output", n)
	}
	if n := schedtest.PerMachine(r, "J2", "reduce", 2); n[0] != 1 || n[1] != 3 {
		t.Fatalf("CA-RTS: J2 reducers per rack %v, want [1 3] like its map output", n)
	}
	r = schedtest.Run(t, doc, nas.New(config(func(c *nas.Config) { c.CARTS, c.CRRTS = false, false })))
	if n := schedtest.PerMachine(r, "J1", "reduce", 2); n[0] != 4 && n[1] != 4 {
		t.Fatalf("without CA-RTS: J1 reducers per rack %v, want all on the first machine offered", n)
	}
}

// crrtsDoc congests the core, then offers a light and a heavy reducer. Two
// racks of one 4-container machine; rack links 10 MB/s; the monitor samples
// every second with a 1 s window. B's reducers (pinned, one per machine)
// each fetch 100 MB from the other rack over [0, 10]: every rack link is
// full, the smoothed utilisation is 1-e^-k after k samples (0.86 at 2 s)
// and falls to 0.37 at the 11 s sample. At 5 s user u1 submits H (200 MB
// shuffle: heavy) and L (0.5 MB: light); their maps finish at once and
// their reducers wait from 5 s. B's reducers compute 1 s and end at 11 s.
const crrtsDoc = `
cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 4, nic: 100MB/s}
network: {topology: two-tier, rack_uplink: 10MB/s, rack_downlink: 10MB/s, monitor: {interval: 1s, window: 1s}}
engine: {heartbeat: 1s}
workload:
  jobs:
    - id: B
      user: u0
      stages:
        - {id: map, tasks: [{compute: 0s, output: 200MB, pin: 0}, {compute: 0s, output: 200MB, pin: 1}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 0}, {compute: 1s, pin: 1}]}
    - id: H
      user: u1
      arrival: 5s
      stages:
        - {id: map, tasks: [{compute: 0s, output: 200MB, pin: 0}]}
        - {id: reduce, after: map, tasks: [{compute: 1s}]}
    - id: L
      user: u1
      arrival: 5s
      stages:
        - {id: map, tasks: [{compute: 0s, output: 0.5MB, pin: 0}]}
        - {id: reduce, after: map, tasks: [{compute: 1s}]}
scheduler: nas
`

// CR-RTS starts the light job's reducer at 5 s and holds the heavy one
// until the congestion clears (the 11 s sample); CA-RTS alone starts both
// at 5 s; with D^r = 0 the user is never skipped and H starts at 5 s too.
func TestCRRTSLightFirstDuringCongestion(t *testing.T) {
	start := func(c nas.Config) (h, l float64) {
		r := schedtest.Run(t, crrtsDoc, nas.New(c))
		return schedtest.Tasks(r, "H", "reduce")[0].Start, schedtest.Tasks(r, "L", "reduce")[0].Start
	}
	h, l := start(nas.DefaultConfig())
	if !schedtest.Near(l, 5) {
		t.Fatalf("NAS: light reducer started at %v, want 5 (during congestion)", l)
	}
	if h < 10 || h > 12 {
		t.Fatalf("NAS: heavy reducer started at %v, want after the congestion clears (10-12 s)", h)
	}
	if h, _ := start(config(func(c *nas.Config) { c.CRRTS = false })); !schedtest.Near(h, 5) {
		t.Fatalf("MTS+CA-RTS: heavy reducer started at %v, want 5", h)
	}
	if h, _ := start(config(func(c *nas.Config) { c.ReduceSkips = 0 })); !schedtest.Near(h, 5) {
		t.Fatalf("D^r=0: heavy reducer started at %v, want 5 (no skip allowed)", h)
	}
}
