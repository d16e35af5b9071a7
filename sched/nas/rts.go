package nas

import "github.com/netsched/netsched/sim"

// reduceTask is a job's first waiting reduce-stage task that may run on m.
func reduceTask(j *job, m int) *sim.Task {
	for _, st := range j.reduces {
		if st.WaitingCount() > 0 {
			if t := st.NextWaiting(m); t != nil {
				return t
			}
		}
	}
	return nil
}

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
func (s *Scheduler) bestReducer(v *sim.View, u *user, m int, congested bool, keep func(*job) bool) *sim.Task {
	r := v.RackOf(m)
	var best *sim.Task
	var bk redKey
	for _, j := range u.jobs {
		if j.waitingReduces == 0 || keep != nil && !keep(j) || !s.mayStartReducer(j) {
			continue
		}
		k := redKey{boost: j.delayed || j.done == j.nMaps, shuffle: j.shuffle}
		if congested {
			k.cat = int(j.class)
		} else {
			k.cat = caCategory(j, r)
		}
		if best != nil && !k.before(bk) {
			continue
		}
		if t := reduceTask(j, m); t != nil {
			best, bk = t, k
		}
	}
	return best
}

// caRTS is Algorithm 3: the first user in fairness order with a waiting
// reducer launches its best one by the six categories.
func (s *Scheduler) caRTS(v *sim.View, m int) *sim.Task {
	for _, u := range s.users.order {
		if u.waitingReduces == 0 {
			continue
		}
		if t := s.bestReducer(v, u, m, false, nil); t != nil {
			s.stats.CARTS++
			return t
		}
	}
	return nil
}

func isLight(j *job) bool { return j.class == Light }

// crRTS is Algorithm 4: users in fairness order; below D^r a user launches
// a reducer of a shuffle-light job (resetting its counter) or is skipped,
// its heavier jobs' reducers marked delayed; at D^r it launches any reducer,
// lighter jobs first.
func (s *Scheduler) crRTS(v *sim.View, m int) *sim.Task {
	for _, u := range s.users.order {
		if u.waitingReduces == 0 {
			continue
		}
		if u.reduceSkip < s.cfg.ReduceSkips {
			if t := s.bestReducer(v, u, m, true, isLight); t != nil {
				u.reduceSkip = 0
				s.stats.CRRTS++
				return t
			}
			for _, j := range u.jobs {
				if j.waitingReduces > 0 && j.class != Light {
					j.delayed = true
				}
			}
			u.reduceSkip++
			continue
		}
		if t := s.bestReducer(v, u, m, true, nil); t != nil {
			s.stats.CRRTS++
			return t
		}
	}
	return nil
}

// fairReduce is reduce scheduling without CA-RTS (the MTS-only ablation):
// the first user in fairness order, its jobs in arrival order.
func (s *Scheduler) fairReduce(m int) *sim.Task {
	for _, u := range s.users.order {
		if u.waitingReduces == 0 {
			continue
		}
		for _, j := range u.jobs {
			if j.waitingReduces > 0 && s.mayStartReducer(j) {
				if t := reduceTask(j, m); t != nil {
					return t
				}
			}
		}
	}
	return nil
}
