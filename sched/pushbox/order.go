package pushbox

import (
	"iter"
	"slices"

	"github.com/netsched/netsched/sched"
)

// jobOrder is the multi-queue job scheduling order (Algorithm 2 line 1):
// jobs that still have waiting tasks not picked in this pass, queue by
// queue, and inside a queue by its policy. A Fair queue puts the job
// holding the fewest slots first (YARN's fair comparator with equal
// weights), ties by arrival; a FIFO queue orders by arrival. With two
// queues (small_fifo), the queue holding fewer slots goes first, the FIFO
// queue of small jobs on a tie. Slots picked in this pass count as held
// (which is why this is not fairlist's order, which nas and sw-delay keep).
// The plan already deducted them from the jobs' waiting tasks.
//
// The order is kept, not recomputed: each queue's jobs with
// waiting tasks sit in an indexed heap keyed by (held slots, arrival), a
// job is re-keyed when a lifecycle event or a placement of this pass
// touched it, and the order is read lazily off the heap (O(k log k) for
// the k jobs the caller asks), so a decision no longer walks and sorts
// every active job. The original sort over v.Jobs() is kept as a
// test-only reference (referenceOrder), and the two give the same
// decisions (TestOrderMatchesReference).
func (s *Scheduler) jobOrder(v sched.View) iter.Seq[*jobState] {
	if referenceOrder != nil {
		return slices.Values(referenceOrder(s, v))
	}
	s.refreshOrder()
	first := 1 // on a tie, the small-job FIFO queue first
	if s.ord.held[0] < s.ord.held[1] {
		first = 0
	}
	return func(yield func(*jobState) bool) {
		if s.ord.walk(first, yield) {
			s.ord.walk(1-first, yield)
		}
	}
}

// referenceOrder, when set (tests only), computes the order the original
// way: a sort of every active job per call.
var referenceOrder func(s *Scheduler, v sched.View) []*jobState

// orderIndex keeps jobOrder's order between calls.
type orderIndex struct {
	heap  [2][]*jobState // per queue: its jobs with waiting tasks, a min-heap by orderBefore
	held  [2]int         // per queue: the sum of its jobs' keys (slots held, picks of the pass included)
	dirty []*jobState    // jobs whose key or waiting tasks may have changed

	// Jobs that placed tasks in pass placedPass: their picks stop counting
	// (pickedNow) when the next pass starts, so they are re-keyed then.
	placed     []*jobState
	placedPass uint32

	trav []int32 // walk's scratch heap of heap positions
}

// orderBefore is jobOrder's order inside one queue.
func orderBefore(a, b *jobState) bool {
	if !a.fifo && a.key != b.key {
		return a.key < b.key
	}
	return a.job.Seq() < b.job.Seq()
}

// touch marks js for re-keying before the next jobOrder.
func (o *orderIndex) touch(js *jobState) {
	if !js.dirty {
		js.dirty = true
		o.dirty = append(o.dirty, js)
	}
}

// newPass re-keys, from pass id on, the jobs that placed tasks in an
// earlier pass.
func (o *orderIndex) newPass(id uint32) {
	if o.placedPass == id {
		return
	}
	for _, js := range o.placed {
		o.touch(js)
	}
	clear(o.placed)
	o.placed, o.placedPass = o.placed[:0], id
}

// placedNow records that js placed its first task of pass id.
func (o *orderIndex) placedNow(js *jobState, id uint32) {
	o.newPass(id)
	o.placed = append(o.placed, js)
}

// forget drops a finished job.
func (o *orderIndex) forget(js *jobState) {
	js.gone = true
	o.held[js.queue] -= js.key
	if js.pos >= 0 {
		o.remove(js)
	}
}

// refreshOrder re-keys the touched jobs from the view.
func (s *Scheduler) refreshOrder() {
	o := &s.ord
	id := s.pass.id
	o.newPass(id)
	for i, js := range o.dirty {
		o.dirty[i] = nil
		js.dirty = false
		if js.gone {
			continue
		}
		k := js.job.Running() + js.pickedNow(id)
		o.held[js.queue] += k - js.key
		js.key = k
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

func (o *orderIndex) swap(h []*jobState, i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].pos, h[j].pos = i, j
}

func (o *orderIndex) up(h []*jobState, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !orderBefore(h[i], h[p]) {
			return
		}
		o.swap(h, i, p)
		i = p
	}
}

func (o *orderIndex) down(h []*jobState, i int) bool {
	i0 := i
	for {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		c := l
		if r := l + 1; r < len(h) && orderBefore(h[r], h[l]) {
			c = r
		}
		if !orderBefore(h[c], h[i]) {
			break
		}
		o.swap(h, i, c)
		i = c
	}
	return i > i0
}

func (o *orderIndex) push(js *jobState) {
	q := js.queue
	js.pos = len(o.heap[q])
	o.heap[q] = append(o.heap[q], js)
	o.up(o.heap[q], js.pos)
}

func (o *orderIndex) fix(js *jobState) {
	h := o.heap[js.queue]
	if !o.down(h, js.pos) {
		o.up(h, js.pos)
	}
}

func (o *orderIndex) remove(js *jobState) {
	q := js.queue
	h := o.heap[q]
	i, last := js.pos, len(h)-1
	if i != last {
		o.swap(h, i, last)
	}
	h[last] = nil
	h = h[:last]
	o.heap[q] = h
	js.pos = -1
	if i != last {
		if !o.down(h, i) {
			o.up(h, i)
		}
	}
}

// walk yields queue q's jobs with waiting tasks in order, without changing
// the heap: a scratch heap of positions holds the frontier (a position's
// children are never before it). It reports false when yield stopped.
func (o *orderIndex) walk(q int, yield func(*jobState) bool) bool {
	h := o.heap[q]
	if len(h) == 0 {
		return true
	}
	less := func(a, b int32) bool { return orderBefore(h[a], h[b]) }
	fr := append(o.trav[:0], 0)
	defer func() { o.trav = fr[:0] }()
	for len(fr) > 0 {
		i := fr[0]
		// pop the frontier's first position
		last := len(fr) - 1
		fr[0] = fr[last]
		fr = fr[:last]
		for k := 0; ; {
			l := 2*k + 1
			if l >= len(fr) {
				break
			}
			c := l
			if r := l + 1; r < len(fr) && less(fr[r], fr[l]) {
				c = r
			}
			if !less(fr[c], fr[k]) {
				break
			}
			fr[k], fr[c] = fr[c], fr[k]
			k = c
		}
		if !yield(h[i]) {
			return false
		}
		for _, c := range [2]int32{2*i + 1, 2*i + 2} {
			if int(c) >= len(h) {
				continue
			}
			fr = append(fr, c)
			for k := len(fr) - 1; k > 0; {
				p := (k - 1) / 2
				if !less(fr[k], fr[p]) {
					break
				}
				fr[k], fr[p] = fr[p], fr[k]
				k = p
			}
		}
	}
	return true
}

// reserved reports whether js's tasks take the reserved lowest priority: in
// a FIFO queue only the head job competes (§5.1 "Flow Priority").
func (s *Scheduler) reserved(js *jobState) bool { return js.fifo && js.job != s.head }

// newHead finds the FIFO queue's head: its earliest-arrived unfinished job.
func (s *Scheduler) newHead(v sched.View) sched.Job {
	for _, j := range v.Jobs() {
		if js := s.jobs[j]; js != nil && js.fifo && j.Finish() < 0 {
			return j
		}
	}
	return sched.Job{}
}
