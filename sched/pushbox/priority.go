package pushbox

import (
	"cmp"
	"slices"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/sched"
)

// Network classes (lower is served first, strict priority, sched.FlowClasser).
// A machine's ranked input-phase tasks hold classes 0..k-1, the header task
// 0 (§4). Two reserved classes sit below every rank.
const (
	// ClassLocal carries transfers Peña counts as local: intra-rack flows
	// when rack-local sources count as local, "to exploit all remaining
	// bandwidth" (§4).
	ClassLocal = 1 << 20
	// ClassReserved is the "reserved lowest priority" of the tasks of a
	// FIFO queue's jobs other than its head (§5.1 "Flow Priority").
	ClassReserved = ClassLocal + 1
)

// rankBefore is the documented order of a machine's ranked input-phase
// tasks: smallest coflow first across jobs (ties by arrival), placement
// order within a job (§5.1 "Flow Priority").
func rankBefore(a, b *entry) int {
	if c := cmp.Compare(a.coflow, b.coflow); c != 0 {
		return c
	}
	if c := cmp.Compare(a.js.job.Seq(), b.js.job.Seq()); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

// sizeBin is the GP ablation's class: the index of the coflow's size bin
// (the seven bins of metrics.SizeBins), smaller coflows first (§7.2).
func sizeBin(coflow float64) int {
	for i, b := range metrics.SizeBins {
		if coflow < b.Upper {
			return i
		}
	}
	return len(metrics.SizeBins) - 1
}

// wantClass is the class an input-phase entry should hold, except for
// ranked entries under Peña, whose class is their rank.
func (s *Scheduler) wantClass(e *entry) (class int, ranked bool) {
	switch {
	case e.local:
		return ClassLocal, false
	case s.reserved(e.js):
		return ClassReserved, false
	case s.cfg.GP:
		return sizeBin(e.coflow), false
	}
	return 0, true
}

// reorder re-assigns the priorities of machine m's input-phase tasks after
// one was placed or finished its input phase (or the FIFO head changed),
// and re-classes the flows of those whose class changed.
func (s *Scheduler) reorder(p *sched.Plan, m int) {
	ranked := s.rankBuf[:0]
	for _, e := range s.mach[m].input {
		class, isRanked := s.wantClass(e)
		if isRanked {
			ranked = append(ranked, e)
			continue
		}
		setClass(p, e.t, class)
	}
	slices.SortFunc(ranked, rankBefore)
	for i, e := range ranked {
		setClass(p, e.t, i)
	}
	clear(ranked)
	s.rankBuf = ranked[:0]
}

func setClass(p *sched.Plan, t sched.Task, class int) {
	if t.Class() != class {
		_ = p.SetClass(t, class) // an error fails the run (classes here are never negative)
	}
}

// FlowClass gives a new flow its task's class, or ClassLocal to an
// intra-rack flow when rack-local sources count as local.
func (s *Scheduler) FlowClass(v sched.View, t sched.Task, src int) int {
	if s.rackLocal && v.RackOf(src) == v.RackOf(t.Machine()) {
		return ClassLocal
	}
	return t.Class()
}
