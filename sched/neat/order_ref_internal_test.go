package neat

import (
	"container/heap"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/fairlist"
)

// oldPlace is the original job order, kept as the reference of
// TestOrderMatchesReference: order fair builds, per pass, a heap of every
// active job with waiting tasks; order fifo walks every active job.
func oldPlace(s *Scheduler, v sched.View, p *sched.Plan) int {
	placed := 0
	if s.cfg.Order == "fair" {
		return s.oldPlaceFair(v, p)
	}
	for _, j := range v.Jobs() {
		if !s.placeJob(v, p, j, len(s.free), &placed) {
			break
		}
	}
	return placed
}

// oldOrder is oldPlaceFair's scratch heap, reused across passes as the
// original did (tests do not run in parallel).
var oldOrder fairHeap

func (s *Scheduler) oldPlaceFair(v sched.View, p *sched.Plan) int {
	h := oldOrder[:0]
	for _, j := range v.Jobs() {
		if j.Waiting() > 0 {
			h = append(h, fairJob{job: j, key: fairlist.Key{Running: j.Running(), Seq: j.Seq()}})
		}
	}
	heap.Init(&h)
	placed := 0
	for h.Len() > 0 && len(s.free) > 0 {
		before := placed
		if !s.placeJob(v, p, h[0].job, 1, &placed) && len(s.free) > 0 {
			break // the plan refused a placement
		}
		if placed == before || h[0].job.Waiting() == 0 {
			heap.Pop(&h) // nothing of it fits now, or nothing left
			continue
		}
		h[0].key.Running++
		heap.Fix(&h, 0)
	}
	oldOrder = h[:0]
	return placed
}

type fairJob struct {
	job sched.Job
	key fairlist.Key // Running: its running tasks, those placed in this pass included
}

type fairHeap []fairJob

func (h fairHeap) Len() int           { return len(h) }
func (h fairHeap) Less(i, k int) bool { return fairlist.Before(&h[i].key, &h[k].key) }
func (h fairHeap) Swap(i, k int)      { h[i], h[k] = h[k], h[i] }
func (h *fairHeap) Push(x any)        { *h = append(*h, x.(fairJob)) }
func (h *fairHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
