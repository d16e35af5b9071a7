package queue

import "github.com/netsched/netsched/sched"

// oldVisit is the walk before the leaves kept ready heaps (test-only
// reference): at a leaf, every app of the leaf with waiting tasks,
// heapified per offer by the leaf's comparator over the apps' live shares.
// The original scanned the leaf's apps in arrival order; this scans the
// tree's map of apps instead (the leaves no longer list them), which gives
// the same sequence because apps compare as a strict total order (the
// submission order breaks every tie), and costs the same O(active apps).
func oldVisit(v sched.View, t *tree, m int, p policy) sched.Task {
	return oldVisitQueue(v, t, t.root, m, p)
}

func oldVisitQueue(v sched.View, t *tree, q *queue, m int, p policy) (got sched.Task) {
	if len(q.children) > 0 {
		var kids []*queue
		for _, c := range q.children {
			if c.waiting > 0 && p.open(c) {
				kids = append(kids, c)
			}
		}
		bestFirst(kids, p.before, func(c *queue) bool {
			got = oldVisitQueue(v, t, c, m, p)
			return !got.IsZero()
		})
		return got
	}
	var ready []*app
	for _, a := range t.apps {
		if a.leaf == q && a.job.Waiting() > 0 {
			ready = append(ready, a)
		}
	}
	bestFirst(ready, q.appBefore(), func(a *app) bool {
		got = p.assign(v, a, m)
		return !got.IsZero()
	})
	return got
}

// appBefore orders a leaf's apps by the leaf's policy (the old walk's
// comparator over live shares).
func (q *queue) appBefore() func(a, b *app) bool {
	if q.Policy == "fifo" {
		return func(a, b *app) bool { return fifoBefore(a.share(), b.share()) }
	}
	return func(a, b *app) bool { return fairBefore(a.share(), b.share()) }
}
