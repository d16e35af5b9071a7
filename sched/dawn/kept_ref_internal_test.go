package dawn

import (
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/locate"
)

// The original per-container passes, kept as the
// references of TestKeptCountsMatchReference and TestIndexPicksMatchSelect.

// oldCount is balance's original recount of P_r: every planned unit's
// preferred racks, one per unit and rack.
func oldCount(s *Scheduler) []int {
	clear(s.refCount)
	if len(s.refCount) != len(s.count) {
		s.refCount = make([]int, len(s.count))
	}
	for _, u := range s.units {
		if !u.planned {
			continue
		}
		for _, p := range u.prefs {
			s.refCount[p.Rack]++
		}
	}
	return s.refCount
}

// oldPinned is decide's original scan of every live unit for a waiting
// task pinned to m.
func oldPinned(s *Scheduler, live []*unit, m int) (*unit, sched.Task) {
	for _, u := range live {
		if t := u.st.NextWaiting(m); !t.IsZero() && t.Pin() == m {
			return u, t
		}
	}
	return nil, sched.Task{}
}

// oldDecide is decide before the decision index: a list of every live
// unit built per container (oldCandidates), and Select over a candidate
// per live unit (oldChoose).
func oldDecide(s *Scheduler, v sched.View, m int, p *sched.Plan) bool {
	live := oldCandidates(s)
	if len(live) == 0 {
		return false
	}
	if referencePinned != nil {
		if u, t := referencePinned(s, live, m); u != nil {
			s.stats.Pinned++
			return s.place(v, u, t, m, p)
		}
	} else if s.pinUnits > 0 {
		for _, u := range live {
			if !u.hasPin {
				continue
			}
			if t := u.st.NextWaiting(m); !t.IsZero() && t.Pin() == m {
				s.stats.Pinned++
				return s.place(v, u, t, m, p)
			}
		}
	}
	rack := v.RackOf(m)
	if u := oldStarving(s, v, live, rack); u != nil {
		if t := locate.Nearest(v, u.st, m); !t.IsZero() {
			s.stats.Starved++
			return s.place(v, u, t, m, p)
		}
	}
	if s.cfg.Balancing {
		oldBalance(s, live, rack)
	}
	saturated := s.saturated(v)
	cands := s.cands[:0]
	for _, u := range live {
		cands = append(cands, Candidate{Prefs: u.prefs, Node: max(0, u.total-u.node[m]), Seq: u.j.seq})
	}
	s.cands = cands
	for range cands {
		k := oldChoose(s, live, cands, rack, saturated)
		if k < 0 {
			return false
		}
		u := live[k]
		if t := locate.Nearest(v, u.st, m); !t.IsZero() {
			if saturated {
				s.stats.Saturated++
			}
			if u.role == output && rack == u.depRack && u.depRack != u.maxRack {
				s.stats.DepPlaced++
			}
			return s.place(v, u, t, m, p)
		}
		cands[k].Prefs = nil // its waiting tasks are pinned elsewhere
	}
	return false
}

// oldChoose runs Algorithm 1 over every candidate, or, with user fairness,
// over the jobs of the first user in fair order that has one for the rack.
func oldChoose(s *Scheduler, live []*unit, cands []Candidate, rack int, saturated bool) int {
	anyRack := s.cfg.RackChoice == "any"
	if !s.cfg.FairUsers {
		return Select(cands, rack, saturated, anyRack)
	}
	for usr := range s.users.All() {
		s.sub, s.subIdx = s.sub[:0], s.subIdx[:0]
		for k, u := range live {
			if u.j.u == usr {
				s.sub = append(s.sub, cands[k])
				s.subIdx = append(s.subIdx, k)
			}
		}
		if k := Select(s.sub, rack, saturated, anyRack); k >= 0 {
			return s.subIdx[k]
		}
	}
	return -1
}

// oldCandidates are the planned stages with tasks left to place, in the
// order their stages became ready; finished stages leave the list of units.
func oldCandidates(s *Scheduler) []*unit {
	keep := s.units[:0]
	live := s.live[:0]
	for _, u := range s.units {
		if u.st.Finished() >= u.st.NumTasks() {
			s.leave(u)
			continue
		}
		keep = append(keep, u)
		if u.planned && u.st.WaitingCount() > 0 {
			live = append(live, u)
		}
	}
	clear(s.units[len(keep):])
	s.units = keep
	s.live = live
	return live
}

// oldBalance is balance over the list of live units.
func oldBalance(s *Scheduler, live []*unit, rack int) {
	count := s.count
	if referenceCount != nil {
		count = referenceCount(s)
	}
	hot := Balance(count, rack, s.cfg.Balance)
	if hot < 0 {
		return
	}
	if k := mover(live, hot, rack); k >= 0 {
		u := live[k]
		u.prefs = append(u.prefs, Preferred{Rack: rack, Traffic: u.traffic(rack)})
		if u.counted {
			s.count[rack]++
		}
		s.stats.Balances++
	}
}

// oldStarving is starving over the list of live units.
func oldStarving(s *Scheduler, v sched.View, live []*unit, rack int) *unit {
	if s.cfg.StarveAfter <= 0 {
		return nil
	}
	var best *unit
	for _, u := range live {
		if v.Now()-u.lastServed > s.cfg.StarveAfter && u.prefers(rack) &&
			(best == nil || u.lastServed < best.lastServed || u.lastServed == best.lastServed && earlier(u, best)) {
			best = u
		}
	}
	return best
}
