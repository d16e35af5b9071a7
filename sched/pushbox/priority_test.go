package pushbox_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/pushbox"
	"github.com/netsched/netsched/sim"
)

// recorder snapshots the classes of machine 0's input-phase tasks right
// after PushBox handled the start of job J3's reducer.
type recorder struct {
	*pushbox.Scheduler
	classes map[string]int
}

func (r *recorder) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	r.Scheduler.Observe(v, e, p)
	if e.Kind == sched.TaskStarted && e.Job.ID() == "J3" && e.Stage.ID() == "reduce" {
		r.classes = map[string]int{}
		for _, t := range v.Machine(0).Running() {
			if t.Phase() == sched.InInput {
				r.classes[fmt.Sprintf("%s.%d", t.Job().ID(), t.Index())] = t.Class()
			}
		}
	}
}

// Three jobs put reducers on machine 0 (m = 4, so every one is admitted):
// J1 (coflow 30 MB, two reducers) at 0, J2 (2 MB) at 1, J3 (10 MB) at 2.
// At 2 all four are in their input phase (J1's get 1 MB/s between them,
// J2's 2 MB take [1,3]).
const threeJobs = `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 4, nic: 1MB/s}
workload:
  jobs:
    - id: J1
      stages:
        - {id: map, tasks: [{output: 30MB, pin: 1}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 0}, {compute: 1s, pin: 0}]}
    - id: J2
      arrival: 1s
      stages:
        - {id: map, tasks: [{output: 2MB, pin: 1}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 0}]}
    - id: J3
      arrival: 2s
      stages:
        - {id: map, tasks: [{output: 10MB, pin: 1}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 0}]}
scheduler: fifo
`

// The documented order: under Fair, smallest coflow first across jobs
// (J2, J3, J1) and placement order inside J1; under FIFO only the head job
// J1 is ranked and the others share the reserved class; under GP each task
// holds its coflow's size bin (<10MB: 0, 10-100MB: 1).
func TestPriorityOrder(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  pushbox.Config
		want map[string]int
	}{
		{"fair", cfg(func(c *pushbox.Config) { c.M = 4 }), map[string]int{"J2.0": 0, "J3.0": 1, "J1.0": 2, "J1.1": 3}},
		{"fifo", cfg(func(c *pushbox.Config) { c.M, c.Policy = 4, pushbox.FIFO }),
			map[string]int{"J1.0": 0, "J1.1": 1, "J2.0": pushbox.ClassReserved, "J3.0": pushbox.ClassReserved}},
		{"gp", cfg(func(c *pushbox.Config) { c.M, c.GP = 4, true }), map[string]int{"J2.0": 0, "J3.0": 1, "J1.0": 1, "J1.1": 1}},
	} {
		r := &recorder{Scheduler: pushbox.New(c.cfg)}
		if _, err := sim.RunWith(schedtest.Parse(t, threeJobs), r); err != nil {
			t.Fatal(err)
		}
		if err := r.Err(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if fmt.Sprint(r.classes) != fmt.Sprint(c.want) {
			t.Errorf("%s: classes %v, want %v", c.name, r.classes, c.want)
		}
	}
}

// The check mode assertion runs after every placement and input-phase end
// over busy runs: the built-in scenario (two-tier, 2:1 oversubscribed, so
// rack-local sources count as local) under every policy and ablation, and
// a non-blocking variant.
func TestPriorityBookkeepingChecked(t *testing.T) {
	variants := map[string]func(c *pushbox.Config){
		"fair":        nil,
		"fifo":        func(c *pushbox.Config) { c.Policy = pushbox.FIFO },
		"multi-queue": func(c *pushbox.Config) { c.SmallFIFO = 100e6 },
		"m1":          func(c *pushbox.Config) { c.M = 1 },
		"GP":          func(c *pushbox.Config) { c.GP = true },
		"RS":          func(c *pushbox.Config) { c.RS = true },
		"H+W":         func(c *pushbox.Config) { c.H, c.W = true, true },
	}
	for _, topo := range []string{"two-tier", "nonblocking"} {
		for name, change := range variants {
			sc, err := scenario.Default()
			if err != nil {
				t.Fatal(err)
			}
			sc.Check = true
			sc.Network.Kind = "nonblocking"
			if topo == "two-tier" {
				sc.Network.Kind = "two-tier"
			}
			s := pushbox.New(cfg(change))
			res, err := sim.RunWith(sc, s)
			if err != nil {
				t.Fatalf("%s/%s: %v", topo, name, err)
			}
			if err := s.Err(); err != nil {
				t.Fatalf("%s/%s: %v", topo, name, err)
			}
			if res.Summary.Jobs != 12 {
				t.Fatalf("%s/%s: %d jobs finished, want 12", topo, name, res.Summary.Jobs)
			}
		}
	}
}

// forgetful hides the start of J2's reducer from PushBox, which then does
// not track it: the assertion must report it, and the engine (sched.Failer)
// stop the run.
type forgetful struct{ *pushbox.Scheduler }

func (f forgetful) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	if e.Kind == sched.TaskStarted && e.Job.ID() == "J2" && e.Stage.ID() == "reduce" {
		return
	}
	f.Scheduler.Observe(v, e, p)
}

func TestPriorityCheckCatchesUntrackedTask(t *testing.T) {
	s := pushbox.New(cfg(func(c *pushbox.Config) { c.M = 4 }))
	_, err := sim.RunWith(schedtest.Parse(t, threeJobs), forgetful{s})
	if err == nil || !strings.Contains(err.Error(), "J2/reduce[0] is in its input phase but not tracked") {
		t.Fatalf("got %v, want the run stopped on an untracked-task violation", err)
	}
}
