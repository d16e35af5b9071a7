package pushbox

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// pass is one scheduling invocation. The plan reserves each placement at
// once, so free slots and waiting tasks are read from the view. What pass
// keeps is a cache of Peña's measures of the machines it looked at (Algorithm
// 3 line 26, update(machine.dataTransferSize)): the counted input-phase
// tasks, their remaining bytes and smallest coflow. A machine is loaded
// lazily from its tracked input-phase tasks, in placement order, and the
// tasks this pass's plan placed on it are folded in after them, in plan
// order, as the plan grows: the bytes are summed in that order.
type pass struct {
	id        uint32
	loaded    []uint32 // pass that loaded machine m
	folded    []int    // machine m's planned tasks folded into its measures
	count     []int
	bytes     []float64
	minCoflow []float64
}

func (p *pass) init(machines int) {
	*p = pass{
		loaded: make([]uint32, machines), folded: make([]int, machines), count: make([]int, machines),
		bytes: make([]float64, machines), minCoflow: make([]float64, machines),
	}
}

// begin starts a new pass.
func (s *Scheduler) begin() {
	s.pass.id++
	if s.pass.id == 0 { // wrapped: forget every mark
		clear(s.pass.loaded)
		for _, js := range s.jobs {
			clear(js.skipMark)
			js.passID = 0
			s.ord.touch(js)
		}
		s.pass.id = 1
	}
}

// load makes machine m's measures current for this pass.
func (s *Scheduler) load(v sched.View, m int) {
	p := &s.pass
	if p.loaded[m] != p.id {
		p.loaded[m], p.folded[m] = p.id, 0
		p.count[m], p.bytes[m], p.minCoflow[m] = 0, 0, math.Inf(1)
		for _, e := range s.mach[m].input {
			if e.local {
				continue // Peña does not count local (or rack-local) transfers
			}
			p.count[m]++
			p.bytes[m] += v.RemainingInput(e.t)
			p.minCoflow[m] = min(p.minCoflow[m], e.coflow)
		}
	}
	mc := v.Machine(m)
	if mc.NumPlanned() == p.folded[m] {
		return
	}
	for i, t := range mc.Planned() {
		if i < p.folded[m] || s.isLocal(v, t, m) {
			continue
		}
		p.count[m]++
		p.bytes[m] += v.RemainingInput(t) // a planned task's estimated input
		p.minCoflow[m] = min(p.minCoflow[m], s.jobs[t.Job()].coflow)
	}
	p.folded[m] = mc.NumPlanned()
}

// place puts t on m in the plan. It reports false when the plan refused
// it (the run then fails), which ends the pass.
func (s *Scheduler) place(v sched.View, p *sched.Plan, t sched.Task, m int) bool {
	js := s.jobs[t.Job()]
	if js.passID != s.pass.id {
		js.passID, js.waitingAt = s.pass.id, js.job.Waiting()
		s.ord.placedNow(js, s.pass.id)
	}
	if err := p.Place(t, m); err != nil {
		return false
	}
	s.ord.touch(js)
	if js.stages[t.Stage().Index()].fileOnly && s.isLocal(v, t, m) {
		js.skips = 0 // delay scheduling: a local launch resets the count
	}
	return true
}

// dataTransferTime is Peña's estimate of how long machine m's counted
// input-phase tasks still need: remaining bytes over the effective rate.
func (s *Scheduler) dataTransferTime(v sched.View, m int) float64 {
	s.load(v, m)
	if s.pass.bytes[m] == 0 {
		return 0
	}
	return s.pass.bytes[m] / s.mach[m].rate
}
