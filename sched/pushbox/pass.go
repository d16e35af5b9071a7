package pushbox

import (
	"math"

	"github.com/netsched/netsched/sim"
)

// pass is one scheduling invocation. The engine applies placements only
// after Schedule returns, so PushBox keeps a shadow of what it already
// picked: free slots, Peña's counted input-phase tasks, their remaining
// bytes and smallest coflow per machine (Algorithm 3 line 26,
// update(machine.dataTransferSize)). Machines are loaded lazily.
type pass struct {
	id        uint32
	out       []sim.Placement
	loaded    []uint32 // pass that loaded machine m
	free      []int
	count     []int
	bytes     []float64
	minCoflow []float64
}

func (p *pass) init(machines int) {
	*p = pass{
		loaded: make([]uint32, machines), free: make([]int, machines), count: make([]int, machines),
		bytes: make([]float64, machines), minCoflow: make([]float64, machines),
	}
}

// begin starts a new pass.
func (s *Scheduler) begin(v *sim.View) {
	s.pass.id++
	if s.pass.id == 0 { // wrapped: forget every mark
		clear(s.pass.loaded)
		for _, js := range s.jobs {
			clear(js.skipMark)
			js.passID = 0
		}
		s.pass.id = 1
	}
	s.pass.out = s.pass.out[:0]
}

// load makes machine m's shadow current for this pass.
func (s *Scheduler) load(v *sim.View, m int) {
	p := &s.pass
	if p.loaded[m] == p.id {
		return
	}
	p.loaded[m] = p.id
	p.free[m] = v.Machines()[m].Free
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

// place records a pick of t on m in this pass.
func (s *Scheduler) place(v *sim.View, t *sim.Task, m int) {
	s.load(v, m)
	p := &s.pass
	js := s.jobs[t.Job()]
	ss := js.stages[t.Stage.Index]
	ss.pick(p.id, t)
	if js.passID != p.id {
		js.passID, js.picked = p.id, 0
	}
	js.picked++
	p.free[m]--
	if s.isLocal(v, t, m) {
		if ss.fileOnly {
			js.skips = 0 // delay scheduling: a local launch resets the count
		}
	} else {
		p.count[m]++
		p.bytes[m] += v.Estimate(t).Input
		p.minCoflow[m] = min(p.minCoflow[m], js.coflow)
	}
	p.out = append(p.out, sim.Placement{Task: t, Machine: m})
}

// dataTransferTime is Peña's estimate of how long machine m's counted
// input-phase tasks still need: remaining bytes over the effective rate.
func (s *Scheduler) dataTransferTime(v *sim.View, m int) float64 {
	s.load(v, m)
	if s.pass.bytes[m] == 0 {
		return 0
	}
	return s.pass.bytes[m] / s.mach[m].rate
}
