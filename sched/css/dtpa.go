package css

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// dtpa is DTPA (Algorithm 1, lines 20-30) on every lane whose running
// task waits for data. With C the cotask of that task and task the last
// task of C queued on the lane, line 26 moves task when
//
//	t_wait + task.ESTCT − C.ESTCT > t_exec,
//
// that is, when the wait delays task's start (its planned start,
// ESTCT − t_exec, plus the wait) past the completion the plan gave C: the
// task would start only after the rest of its cotask is done. We compute
// task's start from the lane as it is now (the running task's remaining
// work with its wait, then the tasks queued ahead), which is the planned
// start plus every delay the lane has taken since the plan (t_wait and
// t_wait^(0) of lines 21-34 together), and C.ESTCT is what the plan that
// placed C estimated. A moved task becomes a cotask of its own (§IV-D:
// "we treat this task as a new arriving cotask and call procedure STSP");
// the lane then checks its new last task of C, as the paper's loop does.
// A task is moved at most once, so DTPA cannot chase a task around.
//
// It reports whether it moved anything (the caller then re-plans).
func (s *Scheduler) dtpa(v sched.View) bool {
	w := s.newWork(v)
	movedAny := false
	for k := range s.lanes.all {
		l := &s.lanes.all[k]
		if !waitsForData(l.running) {
			continue
		}
		c := s.unit[l.running]
		cct, ok := s.plannedCCT[c]
		if !ok {
			continue
		}
		for {
			last := -1
			for i, t := range l.queue {
				if s.unit[t] == c && !s.moved[t] {
					last = i
				}
			}
			if last < 0 {
				break
			}
			start := w.now + w.remaining(k)
			for _, t := range l.queue[:last] {
				start += w.duration(t, l.machine)
			}
			if start <= cct+1e-9*math.Max(1, math.Abs(cct)) {
				break
			}
			t := l.queue[last]
			s.lanes.remove(t)
			s.moved[t] = true
			s.unit[t] = s.newUnit()
			s.loose = append(s.loose, t)
			s.stats.DTPAMoves++
			movedAny = true
		}
	}
	if movedAny {
		s.dirty = true
	}
	return movedAny
}
