package sim

import (
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
)

// firstWaiting places the first waiting task that may run on the machine.
type firstWaiting struct{}

func (firstWaiting) Offer(v sched.View, m int, p *sched.Plan) {
	for _, j := range v.Jobs() {
		for _, st := range j.Stages() {
			if t := st.NextWaiting(m); !t.IsZero() {
				p.Place(t, m)
				return
			}
		}
	}
}

func heartbeatEngine(t *testing.T, machines string) *Engine {
	t.Helper()
	sc, err := scenario.Parse(t.Name()+".yaml", []byte(`
cluster: {racks: 1, machines_per_rack: `+machines+`, slots_per_machine: 1, nic: 1Gbps}
engine: {offers: heartbeat, heartbeat: 1s}
output: {tasks: true}
workload:
  jobs: [{id: A, stages: [{id: s, count: `+machines+`, compute: 5s}]}]
scheduler: fifo
`), ".")
	if err != nil {
		t.Fatal(err)
	}
	sc.Check = true
	e, err := New(sc, firstWaiting{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Heartbeats sit on each machine's phase grid: before the phase the next
// one is the phase itself, at or after it the next grid point strictly
// after now (a heartbeat exactly at now is the one being handled).
func TestHeartbeatGrid(t *testing.T) {
	e := heartbeatEngine(t, "1")
	for _, c := range []struct{ phase, now, want float64 }{
		{0.25, 0, 0.25},
		{0.25, 0.125, 0.25},
		{0.25, 0.25, 1.25},
		{0.25, 1, 1.25},
		{0.25, 3.25, 4.25},
		{0, 0, 1},
		{0, 2.5, 3},
	} {
		e.now, e.hbPhase[0], e.hbScheduled[0], e.events = c.now, c.phase, false, eventHeap{}
		e.scheduleHeartbeat(0)
		e.scheduleHeartbeat(0) // one pending heartbeat per machine
		if e.events.Len() != 1 || e.events.items[0].time != c.want {
			t.Errorf("phase %v at t=%v: heartbeats %+v, want one at %v", c.phase, c.now, e.events.items, c.want)
		}
	}
}

// Heartbeat-only offers: a job arriving at t=0 on idle machines starts on
// each machine's first heartbeat, at its phase (> 0), not one interval later.
func TestFirstHeartbeatAtPhase(t *testing.T) {
	e := heartbeatEngine(t, "4")
	r, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tasks) != 4 {
		t.Fatalf("%d tasks ran, want 4", len(r.Tasks))
	}
	for _, task := range r.Tasks {
		if phase := e.hbPhase[task.Machine]; phase <= 0 || task.Start != phase {
			t.Errorf("task on machine %d started at %v, want its first heartbeat at phase %v", task.Machine, task.Start, phase)
		}
	}
}
