package jobpacker_test

import (
	"math"
	"testing"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/jobpacker"
)

// aggJob is one recurring job on 2 racks of one 4-slot machine: 8 maps of
// 1-8 s writing 31.25 MB each (250 MB of shuffle), the 1-4 s ones pinned to
// rack 0, the 5-8 s ones to rack 1, and 2 reducers. Flows of 100 MB or
// more are elephants; the EPS is 100 MB/s per rack, a circuit 1 GB/s,
// recomputed every 100 ms and dark for 1 ms after a change.
//
// The plan: the maps need both racks for one wave (4 containers a rack),
// and only 2 (map, reduce) rack pairs carry at least 100 MB each, so the
// one feasible pair is (2 map racks, 1 reduce rack); the reduces go to
// rack 0 (both racks free up when the maps end; ties by index). Heartbeats
// every 10 ms offer rack 0 its free containers once the reducers may
// start.
const aggJob = `
cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 4, nic: 10GB/s}
engine: {heartbeat: 10ms}
network:
  topology: hybrid
  rack_uplink: 100MB/s
  rack_downlink: 100MB/s
  ocs: {port_speed: 1GB/s, interval: 100ms, delay: 1ms, elephant: 100MB}
workload:
  jobs:
    - id: J
      recurring: true
      stages:
        - id: map
          tasks: [{compute: 1s, output: 31.25MB, pin: 0}, {compute: 2s, output: 31.25MB, pin: 0},
                  {compute: 3s, output: 31.25MB, pin: 0}, {compute: 4s, output: 31.25MB, pin: 0},
                  {compute: 5s, output: 31.25MB, pin: 1}, {compute: 6s, output: 31.25MB, pin: 1},
                  {compute: 7s, output: 31.25MB, pin: 1}, {compute: 8s, output: 31.25MB, pin: 1}]
        - {id: reduce, after: [{stage: map, slowstart: 0.05}], count: 2, compute: 0s}
`

func aggConfig(aggregate bool) jobpacker.Config {
	c := jobpacker.DefaultConfig()
	c.Elephant, c.OCS, c.EPS, c.Over, c.Aggregate = 100e6, 1e9, 100e6, 0, aggregate
	return c
}

// heldLog records, at every FetchesReady, the bytes the job's reducers on
// rack 0 hold from rack 1, before JobPacker decides.
type heldLog struct {
	*jobpacker.Scheduler
	at   []float64
	held []float64
}

func (h *heldLog) FetchesReady(v sched.View, t sched.Task, p *sched.Plan) {
	sum := 0.0
	for _, r := range t.Stage().Tasks() {
		if r.Phase() != sched.InInput || v.RackOf(r.Machine()) != 0 {
			continue
		}
		for _, f := range v.Fetches(r) {
			if f.Held && f.Rack == 1 {
				sum += f.Bytes
			}
		}
	}
	h.at, h.held = append(h.at, v.Now()), append(h.held, sum)
	h.Scheduler.FetchesReady(v, t, p)
}

// By hand: the reducers may start once 70% of the maps (6 of 8) are
// done, at 6 s; the next two heartbeats of rack 0 (within 20 ms) start
// them there. Each holds its half of the outputs of rack 1's maps done so
// far (31.25 MB per map). FetchesReady sees, before deciding: 31.25 MB
// when the first starts, 62.5 MB with the second; at 7 s, as the 7 s
// map's output reaches each reducer in turn, 78.125 then 93.75 MB, still
// held (below 100 MB); at 8 s 109.375 then 125 MB, released as one
// transfer of 125 MB: every flow (62.5 MB per reducer) is marked with the
// 125 MB aggregate and may take the circuit. It starts on the EPS (10 MB
// in the 0.1 s before the 8.1 s reconfiguration gives rack 1 -> rack 0 a
// circuit, up at 8.101 s) and the rest crosses the OCS: at least 90% of
// the 125 MB. Without aggregation the same bytes leave in 31.25 MB flows
// as the maps finish: no elephant, everything on the EPS.
func TestAggregationUsesOCS(t *testing.T) {
	h := &heldLog{Scheduler: jobpacker.New(aggConfig(true))}
	res := schedtest.Run(t, aggJob, h)
	want := []float64{31.25e6, 62.5e6, 78.125e6, 93.75e6, 109.375e6, 125e6}
	when := []float64{6, 6, 7, 7, 8, 8}
	if len(h.held) != len(want) {
		t.Fatalf("held %v at %v; want %v", h.held, h.at, want)
	}
	for i := range want {
		if math.Abs(h.held[i]-want[i]) > 1 || h.at[i] < when[i] || h.at[i] > when[i]+0.02 {
			t.Errorf("call %d: %g bytes held at %gs; want %g at %gs", i, h.held[i], h.at[i], want[i], when[i])
		}
	}
	if got := res.Summary.Bytes.OCS; got < 0.9*125e6 || got+res.Summary.Bytes.EPS > 125e6+1 {
		t.Errorf("aggregated: OCS %g, EPS %g bytes; want at least 90%% of 125 MB on the OCS", got, res.Summary.Bytes.EPS)
	}
	if s := h.Aggregation(); s.Elephants != 1 || s.Groups != 1 || math.Abs(s.ElephantBytes-125e6) > 1 {
		t.Errorf("aggregation stats %+v, want one 125 MB transfer", s)
	}
	plain := schedtest.Run(t, aggJob, jobpacker.New(aggConfig(false)))
	if plain.Summary.Bytes.OCS != 0 || math.Abs(plain.Summary.Bytes.EPS-125e6) > 1 {
		t.Errorf("without aggregation: OCS %g, EPS %g bytes; want 0 and 125 MB", plain.Summary.Bytes.OCS, plain.Summary.Bytes.EPS)
	}
	for _, tr := range res.Tasks {
		if tr.Stage == "reduce" && (tr.Machine != 0 || tr.Start < 6 || tr.Start > 6.02) {
			t.Errorf("reducer %d on machine %d from %gs, want machine 0 (rack 0) from 6 s", tr.Index, tr.Machine, tr.Start)
		}
	}
}
