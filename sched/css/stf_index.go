package css

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// maxSTFClasses bounds the kinds of machine the index keeps a heap for:
// every unpinned waiting task has an entry per kind, so a cluster of many
// different machines is decided by the scan instead.
const maxSTFClasses = 16

// stfIndex holds STF's waiting tasks ordered as its scan compares them.
// TaskTime(t, m) does not change while t waits (a task's sizes are drawn
// at its job's arrival, machines do not change) and depends on m only
// through m's speed, its NIC and whether m holds a replica of t's input
// split. So machines of equal speed and NIC form a class and an unpinned
// task has one key per class: its time on a machine of the class without
// its input (a class heap), plus its time on each machine holding a
// replica (that machine's local heap). A task pinned to m has one entry,
// in m's pinned heap. The smallest of the three heap tops of m is then the
// task with the smallest TaskTime on m, ties to the earlier job, stage and
// task as in the scan: of a task's entries m consults, the smallest holds
// its TaskTime on m (no transfer is negative).
//
// Tasks whose parent stages are unfinished sit in a second tier consulted
// only when the first has nothing for m; their stage moves to the first
// tier when its last parent task finishes. Entries are inserted when their
// stage becomes ready and dropped lazily when they reach a top: once a
// task leaves the waiting state it never returns to it.
type stfIndex struct {
	transfer bool
	class    []int // class of each machine
	rep      []int // a machine of each class
	tiers    [2]stfTier
	stages   map[sched.Stage]*stfStage // ready stages of active jobs
}

// stfTier is one tier's heaps: per class, and per machine for local and
// pinned tasks.
type stfTier struct {
	byClass []stfHeap
	local   []stfHeap
	pinned  []stfHeap
}

const (
	tierReady = 0 // parents done
	tierEarly = 1 // some parent task unfinished
)

// stfStage is the index's state of a ready stage.
type stfStage struct{ early bool }

// stfEntry is a task with its TaskTime on the machines of one heap.
type stfEntry struct {
	d            float64
	seq          int // job arrival order
	stage, index int
	t            sched.Task
	st           *stfStage
}

// less is the scan's order: shorter time, then earlier job, stage, task.
func (a *stfEntry) less(b *stfEntry) bool {
	if a.d != b.d {
		return a.d < b.d
	}
	if a.seq != b.seq {
		return a.seq < b.seq
	}
	if a.stage != b.stage {
		return a.stage < b.stage
	}
	return a.index < b.index
}

// newSTFIndex returns the index for v's machines, nil when they form too
// many classes.
func newSTFIndex(v sched.View, transfer bool) *stfIndex {
	n := v.NumMachines()
	x := &stfIndex{transfer: transfer, class: make([]int, n), stages: map[sched.Stage]*stfStage{}}
	type kind struct{ speed, nic uint64 }
	classes := map[kind]int{}
	for m := range n {
		mc := v.Machine(m)
		k := kind{speed: math.Float64bits(mc.Speed())}
		if transfer {
			k.nic = math.Float64bits(mc.NIC())
		}
		c, ok := classes[k]
		if !ok {
			if len(classes) == maxSTFClasses {
				return nil
			}
			c = len(classes)
			classes[k] = c
			x.rep = append(x.rep, m)
		}
		x.class[m] = c
	}
	for i := range x.tiers {
		x.tiers[i] = stfTier{byClass: make([]stfHeap, len(x.rep)), local: make([]stfHeap, n), pinned: make([]stfHeap, n)}
	}
	return x
}

// observe applies a lifecycle event; false when a task's key is NaN,
// which a heap cannot order as the scan does.
func (x *stfIndex) observe(v sched.View, e sched.Event) bool {
	switch e.Kind {
	case sched.StageReady:
		info := &stfStage{early: unfinishedParents(e.Stage)}
		x.stages[e.Stage] = info
		tier := tierReady
		if info.early {
			tier = tierEarly
		}
		return x.addStage(v, e.Stage, info, tier)
	case sched.TaskFinished:
		st := e.Stage
		if st.Finished() < st.NumTasks() {
			return true
		}
		for _, c := range st.Children() {
			info := x.stages[c]
			if info == nil || !info.early || unfinishedParents(c) {
				continue
			}
			info.early = false // its early entries are now stale
			if !x.addStage(v, c, info, tierReady) {
				return false
			}
		}
	case sched.JobFinished:
		for _, st := range e.Job.Stages() {
			delete(x.stages, st)
		}
	}
	return true
}

// addStage enters the waiting tasks of st in a tier.
func (x *stfIndex) addStage(v sched.View, st sched.Stage, info *stfStage, tier int) bool {
	tr := &x.tiers[tier]
	seq := st.Job().Seq()
	file := x.transfer && st.HasFileInput()
	for _, t := range st.Waiting() {
		e := stfEntry{seq: seq, stage: st.Index(), index: t.Index(), t: t, st: info}
		if pin := t.Pin(); pin >= 0 {
			e.d = TaskTime(v, t, pin, x.transfer)
			if math.IsNaN(e.d) {
				return false
			}
			tr.pinned[pin].push(e)
			continue
		}
		input := 0.0
		for c, m := range x.rep {
			est := v.EstimateOn(t, m)
			e.d = est.Compute
			if x.transfer {
				e.d += remoteTime(v, m, est.Input)
			}
			if math.IsNaN(e.d) {
				return false
			}
			tr.byClass[c].push(e)
			input = est.Input
		}
		if !file || input <= 0 {
			continue // TaskTime is the class key on every machine
		}
		for i, m := range t.Replicas() {
			if repeated(t, i) {
				continue // one entry per machine, whatever the placer returned
			}
			e.d = TaskTime(v, t, m, x.transfer)
			if math.IsNaN(e.d) {
				return false
			}
			tr.local[m].push(e)
		}
	}
	return true
}

// repeated reports whether t's i-th replica is on the machine of an
// earlier one.
func repeated(t sched.Task, i int) bool {
	for k := range i {
		if t.Replica(k) == t.Replica(i) {
			return true
		}
	}
	return false
}

// remoteTime is transferTime on a machine without a replica of the input.
func remoteTime(v sched.View, m int, input float64) float64 {
	if input <= 0 {
		return 0
	}
	nic := v.Machine(m).NIC()
	if !(nic > 0) {
		return math.Inf(1)
	}
	return input / nic
}

// best is the task STF places on m, zero when none may run there.
func (x *stfIndex) best(v sched.View, m int) sched.Task {
	limit := 2*v.WaitingTasks() + 64
	for tier := range x.tiers {
		tr := &x.tiers[tier]
		var best *stfEntry
		for _, h := range [...]*stfHeap{&tr.byClass[x.class[m]], &tr.local[m], &tr.pinned[m]} {
			if e := h.top(tier == tierEarly, limit); e != nil && (best == nil || e.less(best)) {
				best = e
			}
		}
		if best != nil {
			return best.t
		}
	}
	return sched.Task{}
}

// stale reports whether e no longer stands for a waiting task of its tier.
// An early entry of a stage moved to the ready tier would lose there
// anyway (its task is found in the ready tier first); dropping it frees
// the space sooner.
func (e *stfEntry) stale(early bool) bool {
	return e.t.Phase() != sched.Waiting || early && !e.st.early
}

// stfHeap is a binary min-heap of entries.
type stfHeap []stfEntry

// top drops stale entries and returns the smallest live one, nil when
// none. A heap grown past limit entries (twice the waiting tasks, so at
// least half stale) is compacted first.
func (h *stfHeap) top(early bool, limit int) *stfEntry {
	if len(*h) > limit {
		h.compact(early)
	}
	for len(*h) > 0 {
		if e := &(*h)[0]; !e.stale(early) {
			return e
		}
		h.pop()
	}
	return nil
}

func (h *stfHeap) push(e stfEntry) {
	*h = append(*h, e)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].less(&s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *stfHeap) pop() {
	s := *h
	n := len(s) - 1
	s[0] = s[n]
	s[n] = stfEntry{}
	*h = s[:n]
	h.down(0)
}

func (h *stfHeap) down(i int) {
	s := *h
	n := len(s)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && s[r].less(&s[l]) {
			c = r
		}
		if !s[c].less(&s[i]) {
			return
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
}

// compact removes the stale entries and restores the heap order.
func (h *stfHeap) compact(early bool) {
	s := (*h)[:0]
	for _, e := range *h {
		if !e.stale(early) {
			s = append(s, e)
		}
	}
	clear((*h)[len(s):])
	*h = s
	for i := len(s)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}
