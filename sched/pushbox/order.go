package pushbox

import (
	"cmp"
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
func (s *Scheduler) jobOrder(v sched.View) []*jobState {
	id := s.pass.id
	// Each pick of the pass lowers the cluster's waiting tasks by one.
	if s.orderPass == id && s.orderAt == v.WaitingTasks() {
		return s.orderBuf // nothing picked since it was computed
	}
	s.orderPass, s.orderAt = id, v.WaitingTasks()
	list := s.orderBuf[:0]
	var held [2]int
	for _, j := range v.Jobs() {
		js := s.jobs[j]
		if js == nil {
			continue
		}
		n := j.Running() + js.pickedNow(id)
		held[js.queue] += n
		if j.Waiting() > 0 {
			list = append(list, js)
		}
	}
	slices.SortStableFunc(list, func(a, b *jobState) int {
		if a.queue != b.queue {
			ha, hb := held[a.queue], held[b.queue]
			if ha != hb {
				return cmp.Compare(ha, hb)
			}
			return cmp.Compare(b.queue, a.queue) // small-job FIFO queue first
		}
		if !a.fifo {
			ra, rb := a.job.Running()+a.pickedNow(id), b.job.Running()+b.pickedNow(id)
			if ra != rb {
				return cmp.Compare(ra, rb)
			}
		}
		return cmp.Compare(a.job.Seq(), b.job.Seq())
	})
	s.orderBuf = list
	return list
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
