package nas

import (
	"iter"

	"github.com/netsched/netsched/sched"
)

// Per-machine sets of a user's jobs that may have a data-local map there,
// so that the lookups of a data-local map (localQualified, and the cost-0
// maps of leastOutput) visit those jobs instead of every job with waiting
// maps. The sets are supersets: a job may stay in one after its last such
// map started (it is then skipped as before), never the reverse.
//
// A map task is data-local on m when it has a replica on m or is pinned to
// m. A map without replicas (no DFS input: a stage without file input, or a
// task reading nothing from the DFS) has no locality preference, so it is
// local everywhere and costs 0 from any machine: its job sits in the
// user's anyLocal set instead.

// addLocal counts the waiting tasks of map stage st, ready now, in the sets.
func (u *user) addLocal(j *job, st sched.Stage) {
	if !st.HasFileInput() {
		u.markAnyLocal(j)
		return
	}
	for _, t := range st.Tasks() {
		if t.NumReplicas() == 0 {
			u.markAnyLocal(j)
		}
		u.localMachines(t, func(m int) {
			if j.localRef == nil {
				j.localRef = make(map[int]int32)
			}
			j.localRef[m]++
			if j.localRef[m] == 1 {
				u.localSet(m).add(j.seq)
			}
		})
	}
}

// dropLocal uncounts map task t, which left the waiting state.
func (u *user) dropLocal(j *job, t sched.Task) {
	if !t.Stage().HasFileInput() || j.localRef == nil {
		return
	}
	u.localMachines(t, func(m int) {
		j.localRef[m]--
		if j.localRef[m] <= 0 {
			delete(j.localRef, m)
			u.local[m].remove(j.seq)
		}
	})
}

// localMachines calls fn for each machine t is data-local on (with
// repetition when a replica and the pin coincide: counts stay balanced).
func (u *user) localMachines(t sched.Task, fn func(m int)) {
	for _, r := range t.Replicas() {
		fn(r)
	}
	if p := t.Pin(); p >= 0 {
		fn(p)
	}
}

func (u *user) markAnyLocal(j *job) {
	if !j.anyLocal {
		j.anyLocal = true
		u.anyLocal.add(j.seq)
	}
}

func (u *user) localSet(m int) *seqSet {
	if u.local == nil {
		u.local = make(map[int]*seqSet)
	}
	s := u.local[m]
	if s == nil {
		s = &seqSet{}
		u.local[m] = s
	}
	return s
}

// forgetLocal takes j out of every set (it finished, or has no waiting map
// left and so cannot be local anywhere until a map stage becomes ready).
func (u *user) forgetLocal(j *job) {
	for m := range j.localRef {
		u.local[m].remove(j.seq)
	}
	j.localRef = nil
	if j.anyLocal {
		j.anyLocal = false
		u.anyLocal.remove(j.seq)
	}
}

// relistLocal puts j back under its new arrival number (renumbering).
func (u *user) relistLocal(j *job) {
	for m := range j.localRef {
		u.localSet(m).add(j.seq)
	}
	if j.anyLocal {
		u.anyLocal.add(j.seq)
	}
}

var noJobs seqSet // the set of a machine no job has data on

// localJobs are u's jobs that may have a data-local map on m, in arrival
// order (the union of the machine's set and anyLocal).
func (u *user) localJobs(m int) iter.Seq[*job] {
	return func(yield func(*job) bool) {
		a := u.local[m]
		if a == nil {
			a = &noJobs
		}
		b := &u.anyLocal
		x, y := a.next(0), b.next(0)
		for x >= 0 || y >= 0 {
			i := x
			if i < 0 || (y >= 0 && y < i) {
				i = y
			}
			if x == i {
				x = a.next(i + 1)
			}
			if y == i {
				y = b.next(i + 1)
			}
			if !yield(u.bySeq[i]) {
				return
			}
		}
	}
}
