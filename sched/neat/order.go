package neat

import (
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/fairlist"
)

// The job order a pass serves is kept between passes instead
// of being rebuilt from every active job: the jobs with waiting tasks sit
// in an indexed min-heap, keyed by fairlist's (running tasks, arrival) for
// order fair and by arrival for order fifo. A lifecycle event (arrival,
// stage ready, task started or finished) or a placement of the pass marks
// its job, and the marked jobs are re-keyed from the view when the next
// pass starts, so a pass costs O(k log n) for the k jobs it serves. The
// original per-pass walk of v.Jobs() is kept as a test-only reference
// (referencePlace), and the two make the same decisions
// (TestOrderMatchesReference).

// referencePlace, when set (tests only), serves the jobs the original way.
var referencePlace func(s *Scheduler, v sched.View, p *sched.Plan) int

// jobState is a job's entry in the kept order.
type jobState struct {
	job   sched.Job
	key   fairlist.Key // Running: its running tasks, this pass's placements included (fair only)
	pos   int          // index in the heap, -1 when out of it
	dirty bool
	gone  bool
}

// orderIndex keeps the jobs with waiting tasks in serving order.
type orderIndex struct {
	fifo     bool
	jobs     map[sched.Job]*jobState
	heap     []*jobState
	dirty    []*jobState
	observed bool // events arrive (the scheduler is not hidden behind a wrapper without Observe)
}

func (o *orderIndex) init(fifo bool) {
	*o = orderIndex{fifo: fifo, jobs: map[sched.Job]*jobState{}}
}

// Observe marks the job of each event that can change its waiting or
// running tasks.
func (s *Scheduler) Observe(_ sched.View, e sched.Event, _ *sched.Plan) {
	o := &s.ord
	o.observed = true
	switch e.Kind {
	case sched.JobArrived, sched.StageReady, sched.TaskStarted, sched.TaskFinished:
		o.touch(e.Job)
	case sched.JobFinished:
		if js := o.jobs[e.Job]; js != nil {
			js.gone = true
			if js.pos >= 0 {
				o.remove(js)
			}
			delete(o.jobs, e.Job)
		}
	}
}

// touch marks job j for re-keying before the next pass.
func (o *orderIndex) touch(j sched.Job) {
	if o.jobs == nil {
		o.jobs = map[sched.Job]*jobState{}
	}
	js := o.jobs[j]
	if js == nil {
		js = &jobState{job: j, key: fairlist.Key{Seq: j.Seq()}, pos: -1}
		o.jobs[j] = js
	}
	o.mark(js)
}

func (o *orderIndex) mark(js *jobState) {
	if !js.dirty {
		js.dirty = true
		o.dirty = append(o.dirty, js)
	}
}

// refresh re-keys the marked jobs from the view. Without events (neat
// wrapped by a type that hides Observe) it rebuilds the order from every
// active job, as the original did.
func (o *orderIndex) refresh(v sched.View) {
	if !o.observed {
		for _, js := range o.heap {
			js.pos = -1
		}
		o.heap = o.heap[:0]
		clear(o.jobs)
		for _, js := range o.dirty {
			js.dirty = false
		}
		o.dirty = o.dirty[:0]
		for _, j := range v.Jobs() {
			o.touch(j)
		}
	}
	for i, js := range o.dirty {
		o.dirty[i] = nil
		js.dirty = false
		if js.gone {
			continue
		}
		if !o.fifo {
			js.key.Running = js.job.Running()
		}
		switch {
		case js.job.Waiting() > 0 && js.pos < 0:
			o.push(js)
		case js.job.Waiting() > 0:
			o.fix(js)
		case js.pos >= 0:
			o.remove(js)
		}
	}
	o.dirty = o.dirty[:0]
}

// before is the serving order; Seq is unique, so the order is total and
// the heap's first job is the one the original order put first.
func (o *orderIndex) before(a, b *jobState) bool {
	if o.fifo {
		return a.key.Seq < b.key.Seq
	}
	return fairlist.Before(&a.key, &b.key)
}

func (o *orderIndex) swap(i, j int) {
	h := o.heap
	h[i], h[j] = h[j], h[i]
	h[i].pos, h[j].pos = i, j
}

func (o *orderIndex) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !o.before(o.heap[i], o.heap[p]) {
			return
		}
		o.swap(i, p)
		i = p
	}
}

func (o *orderIndex) down(i int) bool {
	h := o.heap
	i0 := i
	for {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		c := l
		if r := l + 1; r < len(h) && o.before(h[r], h[l]) {
			c = r
		}
		if !o.before(h[c], h[i]) {
			break
		}
		o.swap(i, c)
		i = c
	}
	return i > i0
}

func (o *orderIndex) push(js *jobState) {
	js.pos = len(o.heap)
	o.heap = append(o.heap, js)
	o.up(js.pos)
}

func (o *orderIndex) fix(js *jobState) {
	if !o.down(js.pos) {
		o.up(js.pos)
	}
}

func (o *orderIndex) remove(js *jobState) {
	i, last := js.pos, len(o.heap)-1
	if i != last {
		o.swap(i, last)
	}
	o.heap[last] = nil
	o.heap = o.heap[:last]
	js.pos = -1
	if i != last {
		o.fix(o.heap[i])
	}
}

// placeFair gives the free slots one task at a time to the job with the
// fewest running tasks (those placed in this pass included), ties by
// arrival: the job-level fair order of Hadoop's Fair scheduler without
// weights or locality waits (fairlist's order), so that neat's placement
// can be compared with fair on the same job order. A job none of whose
// tasks fits now leaves the order for the rest of the pass.
func (s *Scheduler) placeFair(v sched.View, p *sched.Plan) int {
	o := &s.ord
	o.refresh(v)
	placed := 0
	for len(o.heap) > 0 && len(s.free) > 0 {
		js := o.heap[0]
		o.mark(js)
		before := placed
		if !s.placeJob(v, p, js.job, 1, &placed) && len(s.free) > 0 {
			break // the plan refused a placement
		}
		if placed == before || js.job.Waiting() == 0 {
			o.remove(js) // nothing of it fits now, or nothing left
			continue
		}
		js.key.Running++
		o.fix(js)
	}
	return placed
}

// placeFIFO serves the jobs with waiting tasks by arrival, each with as
// many slots as it can take.
func (s *Scheduler) placeFIFO(v sched.View, p *sched.Plan) int {
	o := &s.ord
	o.refresh(v)
	placed := 0
	for len(o.heap) > 0 {
		js := o.heap[0]
		o.mark(js)
		o.remove(js)
		if !s.placeJob(v, p, js.job, len(s.free), &placed) {
			break
		}
	}
	return placed
}
