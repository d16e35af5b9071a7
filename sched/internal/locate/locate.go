// Package locate finds a waiting task of a stage for the machine a slot is
// offered on: the lookups fifo, nas and sw-delay share, stage by stage.
//
// Package queue's pick is deliberately not here: it follows YARN's
// requests, one locality level across all of a job's stages at a priority
// before the next level, up to an allowed level. pushbox's localityPick
// must also skip tasks it picked earlier in the same pass, which are still
// waiting for the engine.
package locate

import (
	"iter"
	"slices"

	"github.com/netsched/netsched/sched"
)

// First is the first waiting task of stages, in stage then index order,
// that may run on m: no locality preference.
func First(stages []sched.Stage, m int) sched.Task { return FirstOf(slices.All(stages), m) }

// FirstOf is First over stages listed by an iterator (such as
// Job.WaitingStages), which it stops at the task found.
func FirstOf(stages iter.Seq2[int, sched.Stage], m int) sched.Task {
	for _, st := range stages {
		if st.WaitingCount() > 0 {
			if t := st.NextWaiting(m); !t.IsZero() {
				return t
			}
		}
	}
	return sched.Task{}
}

// Local is a data-local waiting task of st for m: one with a replica on m
// (or pinned to m). A stage without file input reads no DFS block, so any
// of its tasks that may run on m is local there.
func Local(st sched.Stage, m int) sched.Task {
	if !st.HasFileInput() {
		return st.NextWaiting(m)
	}
	return st.LocalWaiting(m)
}

// Nearest is st's most local waiting task for m: node-local, else
// rack-local, else any that may run on m.
func Nearest(v sched.View, st sched.Stage, m int) sched.Task {
	if t := st.LocalWaiting(m); !t.IsZero() {
		return t
	}
	if t := st.RackLocalWaiting(v.RackOf(m)); !t.IsZero() {
		return t
	}
	return st.NextWaiting(m)
}
