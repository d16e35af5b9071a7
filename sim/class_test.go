package sim_test

import (
	"testing"

	"github.com/netsched/netsched/sched"
)

// reclasser gives flows from machine 0 class 0 whatever their task's class
// (as PushBox does intra-rack flows) and every other flow its task's
// class: job R's reducer 1, job U's 3. At t=0.5, when job T arrives, it
// moves R's reducer to 5 (a plan can re-class in Observe; ticks get none).
type reclasser struct {
	r    sched.Task
	done bool
}

func (s *reclasser) Offer(v sched.View, m int, p *sched.Plan) {
	for _, j := range v.Jobs() {
		for _, st := range j.Stages() {
			t := st.NextWaiting(m)
			if t.IsZero() {
				continue
			}
			if st.NumParents() > 0 {
				class := 3
				if j.ID() == "R" {
					class, s.r = 1, t
				}
				p.SetClass(t, class)
			}
			p.Place(t, m)
			return
		}
	}
}

func (s *reclasser) FlowClass(v sched.View, t sched.Task, src int) int {
	if src == 0 {
		return 0
	}
	return t.Class()
}

func (s *reclasser) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	if !s.done && e.Kind == sched.JobArrived && v.Now() >= 0.5 && !s.r.IsZero() {
		s.done = true
		p.SetClass(s.r, 5)
	}
}

// Re-classing a task re-derives each in-flight flow's class through
// FlowClass. Machine 2's 1 MB/s downlink carries R's flows from machines 0
// (A, class 0) and 1 (B, class 1) and U's flow from machine 4 (D, class 3),
// 1 MB each. Until 0.5 A has the link alone. Moving R to class 5 leaves A
// in class 0: A ends at 1, then D runs alone until 2, so U's job ends at 2.
// (Moving A to class 5 with B would let D run from 0.5 and end at 1.5.)
// Job T (0s on the otherwise idle machine 3, no data) only marks t=0.5.
func TestSetTaskClassKeepsFlowClasses(t *testing.T) {
	e, err := runWith(t, `
cluster: {racks: 1, machines_per_rack: 5, slots_per_machine: 2, nic: 1MB/s}
network: {topology: nonblocking}
workload:
  jobs:
    - id: R
      stages:
        - {id: map, tasks: [{compute: 0s, output: 1MB, pin: 0}, {compute: 0s, output: 1MB, pin: 1}]}
        - {id: reduce, after: map, tasks: [{compute: 0s, pin: 2}]}
    - id: U
      stages:
        - {id: map, tasks: [{compute: 0s, output: 1MB, pin: 4}]}
        - {id: reduce, after: map, tasks: [{compute: 0s, pin: 2}]}
    - {id: T, arrival: 0.5s, stages: [{id: s, tasks: [{compute: 0s, pin: 3}]}]}
scheduler: fifo
`, &reclasser{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"R": 3, "U": 2, "T": 0}
	for _, j := range r.Jobs {
		if !near(j.JCT, want[j.ID]) {
			t.Errorf("job %s: JCT %v, want %v", j.ID, j.JCT, want[j.ID])
		}
	}
}
