package pushbox

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// Observe keeps Peña's per-machine state in step with the engine: a task
// that starts joins its machine's input-phase tasks, one that finishes its
// input phase leaves them, and each change re-orders the machine's flow
// priorities (§5.1). In check mode the order is asserted after each change.
func (s *Scheduler) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	switch e.Kind {
	case sched.JobArrived:
		js := s.newJob(v, e.Job)
		s.jobs[e.Job] = js
		s.jobStats(js)
		s.ord.touch(js)
		if js.fifo && s.head.IsZero() {
			s.head = e.Job
		}
	case sched.StageReady, sched.TaskFinished:
		if js := s.jobs[e.Job]; js != nil {
			s.ord.touch(js)
		}
	case sched.TaskStarted:
		m := e.Task.Machine()
		js := s.jobs[e.Job]
		s.ord.touch(js)
		s.seq++
		s.mach[m].input = append(s.mach[m].input, &entry{t: e.Task, js: js, seq: s.seq, local: s.isLocal(v, e.Task, m), coflow: js.coflow})
		if !s.mach[m].sampling {
			s.mach[m].sampling = true
			s.sampling = append(s.sampling, m)
		}
		s.reorder(p, m)
		s.assert(v, m)
	case sched.InputDone:
		m := e.Task.Machine()
		counted := false
		if en := s.mach[m].find(e.Task); en != nil {
			counted = !en.local
		}
		s.mach[m].remove(e.Task)
		if counted {
			s.countDrop(v, m)
		}
		s.reorder(p, m)
		s.assert(v, m)
	case sched.JobFinished:
		if js := s.jobs[e.Job]; js != nil {
			s.ord.forget(js)
		}
		delete(s.jobs, e.Job)
		if e.Job == s.head {
			s.head = s.newHead(v)
			// The new head's tasks leave the reserved class everywhere.
			for m := range s.mach {
				s.reorder(p, m)
				s.assert(v, m)
			}
		}
	}
}

// sampleRates folds each machine's measured receive rate since the last
// call into its EMA (§4: received bytes over elapsed time, smoothed). The
// rate is the exact one of the flows into the machine, sampled at every
// scheduling call and held until the next; intervals in which the machine
// received nothing are left out, so the EMA stays the machine's effective
// bandwidth while busy rather than decaying towards zero when idle.
//
// Only the machines in s.sampling are visited: every machine with a sample
// or input-phase tasks is there (each machine's update is its own, so the
// order does not matter), and one idle before and now leaves it.
func (s *Scheduler) sampleRates(v sched.View) {
	now := v.Now()
	keep := s.sampling[:0]
	defer func() { s.sampling = keep }()
	for _, m := range s.sampling {
		ms := &s.mach[m]
		if ms.sample == 0 && len(ms.input) == 0 {
			ms.sampling = false
			continue // idle before and now: nothing to fold or measure
		}
		keep = append(keep, m)
		if dt := now - ms.lastT; dt > 0 && ms.sample > 0 {
			ms.rate += (1 - math.Exp(-dt/s.cfg.RateWindow)) * (ms.sample - ms.rate)
		}
		ms.lastT = now
		ms.sample = 0
		if len(ms.input) > 0 {
			ms.sample = v.ReceiveRateNow(m)
		}
	}
}
