package css

import (
	"slices"

	"github.com/netsched/netsched/sched"
)

// A lane is one of CSS's per-host queues (§III-A). The paper's host runs
// one task at a time; a netsched machine with s slots runs s, so it is
// given s lanes, each a sequential queue of its own: a slot that frees
// pops the head of its own lane. "Remaining work" W is then per lane, and
// the placement LP sees s hosts where the machine is (all with the
// machine's speed and NIC). This keeps the paper's model exactly for
// one-slot machines and never lets a queued task jump to a slot whose lane
// it is not in.
type lane struct {
	machine int
	running sched.Task   // the task holding this lane's slot (zero: free)
	queue   []sched.Task // placed, not started, in run order
}

// lanes are all lanes of the cluster, machine by machine, and where every
// placed task is.
type lanes struct {
	all    []lane
	byTask map[sched.Task]int // lane of each queued or running task
}

func newLanes(v sched.View) lanes {
	ls := lanes{byTask: map[sched.Task]int{}}
	for m := range v.NumMachines() {
		for range v.Machine(m).Slots() {
			ls.all = append(ls.all, lane{machine: m})
		}
	}
	return ls
}

// clearQueues empties every queue (a full re-plan refills them).
func (ls *lanes) clearQueues() {
	for k := range ls.all {
		for _, t := range ls.all[k].queue {
			delete(ls.byTask, t)
		}
		ls.all[k].queue = ls.all[k].queue[:0]
	}
}

// enqueue appends t to lane k.
func (ls *lanes) enqueue(k int, t sched.Task) {
	ls.all[k].queue = append(ls.all[k].queue, t)
	ls.byTask[t] = k
}

// remove takes queued task t out of its lane.
func (ls *lanes) remove(t sched.Task) {
	k, ok := ls.byTask[t]
	if !ok {
		return
	}
	l := &ls.all[k]
	if i := slices.Index(l.queue, t); i >= 0 {
		l.queue = slices.Delete(l.queue, i, i+1)
		delete(ls.byTask, t)
	}
}

// pop starts the head of lane k's queue: the task now holds the lane.
func (ls *lanes) pop(k int) sched.Task {
	l := &ls.all[k]
	t := l.queue[0]
	l.queue = slices.Delete(l.queue, 0, 1)
	l.running = t
	return t
}

// finished frees the lane of a finished task.
func (ls *lanes) finished(t sched.Task) {
	if k, ok := ls.byTask[t]; ok && ls.all[k].running == t {
		ls.all[k].running = sched.Task{}
		delete(ls.byTask, t)
	}
}

// queued reports whether t waits in some lane's queue.
func (ls *lanes) queued(t sched.Task) bool {
	k, ok := ls.byTask[t]
	return ok && ls.all[k].running != t
}
