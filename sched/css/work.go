package css

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// never stands for "not in any foreseeable time" where a finite number is
// needed (the placement LP takes finite backlogs): a circular wait, or a
// NIC of speed 0. About 31.7 years, the scenario limit on any duration.
const never = 1e9

// work estimates, at one instant, when lanes free up and tasks finish: the
// remaining work W of Algorithm 1 and the ESTCTs DTPA compares. Estimates
// go through the knowledge model. Results are memoised for the instant; a
// change to the queues needs a new work.
type work struct {
	s   *Scheduler
	v   sched.View
	now float64

	rem      map[int]float64        // lane -> seconds until its running task ends
	fin      map[sched.Task]float64 // task -> estimated finish (absolute)
	dur      map[durKey]float64     // TaskTime memo
	visiting map[int]bool           // lanes whose rem is being computed (cycle guard)
}

type durKey struct {
	t sched.Task
	m int
}

func (s *Scheduler) newWork(v sched.View) *work {
	return &work{s: s, v: v, now: v.Now(), rem: map[int]float64{}, fin: map[sched.Task]float64{},
		dur: map[durKey]float64{}, visiting: map[int]bool{}}
}

// duration is t_jk: task t's estimated time on machine m (TaskTime).
func (w *work) duration(t sched.Task, m int) float64 {
	k := durKey{t, m}
	if d, ok := w.dur[k]; ok {
		return d
	}
	d := TaskTime(w.v, t, m, w.s.cfg.Transfer)
	w.dur[k] = d
	return d
}

// remaining is the estimated time until lane k's running task ends
// (0 when the lane is free). A computing task has its estimated compute
// left; one in its input phase has its input still to come, and when it
// waits for data (DTPA's timeToWaitData) the time until the last parent
// task it needs is estimated to finish, then its whole compute.
func (w *work) remaining(k int) float64 {
	if r, ok := w.rem[k]; ok {
		return r
	}
	l := &w.s.lanes.all[k]
	t := l.running
	if t.IsZero() {
		return 0
	}
	if w.visiting[k] {
		return never // a circular wait: it does not end
	}
	w.visiting[k] = true
	defer delete(w.visiting, k)
	m := l.machine
	e := w.v.EstimateOn(t, m)
	var r float64
	if t.Phase() == sched.Computing {
		r = math.Max(0, t.InputDoneAt()+e.Compute-w.now)
	} else {
		ready := w.now
		left, total := 0, 0
		for _, edge := range t.Stage().Parents() {
			for _, p := range edge.Parent.Tasks() {
				total++
				if p.Phase() != sched.Done {
					left++
					ready = math.Max(ready, w.finish(p))
				}
			}
		}
		r = ready - w.now + e.Compute
		if w.s.cfg.Transfer {
			in := w.v.RemainingInput(t)
			if left > 0 {
				// Most of what arrived before the last parent finished has
				// been fetched by then; what is left is the late parents'.
				in *= float64(left) / float64(total)
			}
			r += transferTime(w.v, t, m, in)
		}
	}
	r = math.Min(r, never)
	w.rem[k] = r
	return r
}

// finish is task t's estimated finish time: its record when done, its
// lane's remaining work when running, its place in its lane's queue when
// queued (the tasks ahead of it run back to back; their own data waits
// are not foreseen), and, for a task in no lane yet, its shortest time on
// any machine from now.
func (w *work) finish(t sched.Task) float64 {
	if t.Phase() == sched.Done {
		return t.FinishAt()
	}
	if f, ok := w.fin[t]; ok {
		return f
	}
	k, ok := w.s.lanes.byTask[t]
	switch {
	case ok && w.s.lanes.all[k].running == t:
		w.fin[t] = w.now + w.remaining(k)
	case ok:
		w.laneFinishes(k)
	default:
		best := math.Inf(1)
		for m := range w.v.NumMachines() {
			if w.v.Machine(m).Slots() > 0 {
				best = math.Min(best, w.duration(t, m))
			}
		}
		w.fin[t] = w.now + math.Min(best, never)
	}
	return w.fin[t]
}

// laneFinishes estimates the finish of every task queued on lane k.
func (w *work) laneFinishes(k int) {
	l := &w.s.lanes.all[k]
	at := w.now + w.remaining(k)
	for _, q := range l.queue {
		at += w.duration(q, l.machine)
		w.fin[q] = at
	}
}

// backlog is W of lane k: seconds from now until its running task and its
// whole queue are done.
func (w *work) backlog(k int) float64 {
	l := &w.s.lanes.all[k]
	b := w.remaining(k)
	for _, q := range l.queue {
		b += w.duration(q, l.machine)
	}
	return math.Min(b, never)
}
