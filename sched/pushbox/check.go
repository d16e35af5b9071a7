package pushbox

import (
	"fmt"
	"slices"

	"github.com/netsched/netsched/sched"
)

// assert checks machine m's priority bookkeeping when checking is on and
// records the first violation (see Err). It reads the engine's view of the
// machine, not PushBox's list, so a task PushBox lost track of is caught:
//   - every input-phase task is tracked;
//   - local and reserved tasks hold ClassLocal / ClassReserved, and under
//     GP every other task holds its coflow's size bin;
//   - otherwise the other tasks hold the distinct classes 0..k-1, and in
//     class order they are sorted by (coflow, job arrival, placement).
func (s *Scheduler) assert(v sched.View, m int) {
	if !s.check || s.err != nil {
		return
	}
	if err := s.checkMachine(v, m); err != nil {
		s.err = fmt.Errorf("pushbox %w at t=%gs, machine %d: %w", sched.ErrCheck, v.Now(), m, err)
	}
}

func (s *Scheduler) checkMachine(v sched.View, m int) error {
	var ranked []*entry
	tracked := 0
	for _, t := range v.Machine(m).Running() {
		if t.Phase() != sched.InInput {
			continue
		}
		e := s.mach[m].find(t)
		if e == nil {
			return fmt.Errorf("%s is in its input phase but not tracked", t)
		}
		tracked++
		want, isRanked := s.wantClass(e)
		if isRanked {
			ranked = append(ranked, e)
			continue
		}
		if t.Class() != want {
			return fmt.Errorf("%s holds class %d, want %d", t, t.Class(), want)
		}
	}
	if tracked != len(s.mach[m].input) {
		return fmt.Errorf("%d input-phase tasks tracked, the machine has %d", len(s.mach[m].input), tracked)
	}
	slices.SortFunc(ranked, func(a, b *entry) int { return a.t.Class() - b.t.Class() })
	for i, e := range ranked {
		if e.t.Class() != i {
			return fmt.Errorf("ranked classes are not 0..%d: %s holds %d at rank %d", len(ranked)-1, e.t, e.t.Class(), i)
		}
		if i > 0 && rankBefore(ranked[i-1], e) >= 0 {
			return fmt.Errorf("%s (class %d) is ahead of %s (class %d) against the documented order", ranked[i-1].t, i-1, e.t, i)
		}
	}
	return nil
}
