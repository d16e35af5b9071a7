package pushbox

import (
	"cmp"
	"slices"

	"github.com/netsched/netsched/sched"
)

// oldJobOrder is jobOrder as it was before the kept order: the
// jobs with waiting tasks collected from every active job and sorted per
// call (cached while nothing was picked). The reference of
// TestOrderMatchesReference.
func oldJobOrder(s *Scheduler, v sched.View) []*jobState {
	id := s.pass.id
	// Each pick of the pass lowers the cluster's waiting tasks by one.
	if s.refPass == id && s.refAt == v.WaitingTasks() {
		return s.refBuf // nothing picked since it was computed
	}
	s.refPass, s.refAt = id, v.WaitingTasks()
	list := s.refBuf[:0]
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
	s.refBuf = list
	return list
}
