package nas

import (
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/locate"
)

// reduceTask is a job's first waiting reduce-stage task that may run on m.
func reduceTask(j *job, m int) sched.Task { return locate.First(j.reduces, m) }

// redKey orders a user's jobs for a reducer on rack r.
type redKey struct {
	cat     int  // category (CA-RTS: 0-5; congested: the class)
	boost   bool // marked delayed, or all maps done
	shuffle float64
}

func (a redKey) before(b redKey) bool {
	if a.cat != b.cat {
		return a.cat < b.cat
	}
	if a.boost != b.boost {
		return a.boost
	}
	return a.shuffle > b.shuffle // larger shuffle first
}

// caCategory is Algorithm 3's lines 3-8: heavy, medium, light jobs under
// ReduceNum on this rack, then light, medium, heavy over it.
func caCategory(j *job, r int) int {
	if j.underReduceNum(r) {
		return 2 - int(j.class) // heavy 0, medium 1, light 2
	}
	return 3 + int(j.class) // light 3, medium 4, heavy 5
}

// bestReducer picks the user's reducer for machine m: jobs ordered by
// CA-RTS's key, or when congested by class (light first) and the same
// tie-breaks; only jobs accepted by keep are considered.
func (s *Scheduler) bestReducer(v sched.View, u *user, m int, congested bool, keep func(*job) bool) sched.Task {
	r := v.RackOf(m)
	var best sched.Task
	var bk redKey
	for j := range u.redJobs() {
		if j.tasks.WaitingReduces == 0 || keep != nil && !keep(j) || !s.mayStartReducer(j) {
			continue
		}
		k := redKey{boost: j.delayed || j.done == j.est.Maps, shuffle: j.shuffle}
		if congested {
			k.cat = int(j.class)
		} else {
			k.cat = caCategory(j, r)
		}
		if !best.IsZero() && !k.before(bk) {
			continue
		}
		if t := reduceTask(j, m); !t.IsZero() {
			best, bk = t, k
		}
	}
	return best
}

// reduceFor is reduce scheduling for user u on a request from machine m:
// CA-RTS (Algorithm 3) while the core is not congested, CR-RTS (Algorithm
// 4) while it is, or without CA-RTS the user's jobs in arrival order.
func (s *Scheduler) reduceFor(v sched.View, u *user, m int, congested bool) sched.Task {
	switch {
	case congested && s.cfg.CRRTS:
		s.hold = s.cfg.HoldMaps
		s.stats.Activations++
		s.stats.CongestionSum += v.Monitor().CrossRackUtilization
		return s.crRTS(v, u, m)
	case s.cfg.CARTS:
		t := s.bestReducer(v, u, m, false, nil)
		if !t.IsZero() {
			s.stats.CARTS++
			j := s.byJob[t.Job()]
			if caCategory(j, v.RackOf(m)) < 3 {
				s.stats.CARTSUnder++
			}
			if f := s.firstReducer(u, m); !f.IsZero() && f.Job() != t.Job() {
				s.stats.CARTSMoved++
				s.jobStats(j).CARTSMoved++
				s.jobStats(s.byJob[f.Job()]).CARTSDisplaced++
			}
		}
		return t
	}
	return s.firstReducer(u, m)
}

func isLight(j *job) bool { return j.class == Light }

// crRTS is Algorithm 4 for user u: below D^r skips it launches a reducer of
// a shuffle-light job (resetting its counter) or is skipped, its heavier
// jobs' reducers marked delayed; at D^r it launches any reducer, lighter
// jobs first.
func (s *Scheduler) crRTS(v sched.View, u *user, m int) sched.Task {
	if u.reduceSkip >= s.cfg.ReduceSkips {
		t := s.bestReducer(v, u, m, true, nil)
		if !t.IsZero() {
			s.stats.CRRTS++
			s.stats.CRRTSForced++
		}
		return t
	}
	if t := s.bestReducer(v, u, m, true, isLight); !t.IsZero() {
		u.reduceSkip = 0
		s.stats.CRRTS++
		s.stats.CRRTSLight++
		return t
	}
	skipped := false
	for j := range u.redJobs() {
		if j.tasks.WaitingReduces > 0 && j.class != Light && s.mayStartReducer(j) {
			j.delayed = true
			skipped = true
			s.jobStats(j).CRDelayed++
		}
	}
	if skipped {
		u.reduceSkip++
		s.stats.CRRTSSkipped++
	}
	return sched.Task{}
}

// firstReducer is reduce scheduling without CA-RTS (the MTS-only
// ablation): the user's jobs in arrival order.
func (s *Scheduler) firstReducer(u *user, m int) sched.Task {
	for j := range u.redJobs() {
		if j.tasks.WaitingReduces > 0 && s.mayStartReducer(j) {
			if t := reduceTask(j, m); !t.IsZero() {
				return t
			}
		}
	}
	return sched.Task{}
}
