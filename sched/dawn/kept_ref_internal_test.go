package dawn

import "github.com/netsched/netsched/sched"

// The original per-container passes (before issue #21), kept as the
// references of TestKeptCountsMatchReference.

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
