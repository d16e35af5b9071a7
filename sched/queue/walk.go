package queue

import (
	"math"

	"github.com/netsched/netsched/sched"
)

var inf = math.Inf(1)

// policy is what a scheduler adds to the walk of an offer down the tree:
// which queues may take one more slot, how siblings are ordered, and how an
// app uses the offer (nil: the app passes and the next one is asked).
type policy interface {
	open(q *queue) bool
	before(a, b *queue) bool
	assign(v sched.View, a *app, m int) sched.Task
}

// offer walks machine m's free slot down the tree (§1.3): at each parent the
// open children with waiting tasks in policy order, at a leaf its apps with
// waiting tasks in the leaf's order, until an app places a task.
//
// A leaf keeps its apps with waiting tasks in a heap (readyApps) kept in
// step with lifecycle events, and the walk pops only the apps it asks, so
// an offer costs O(log n) per app asked rather than O(active apps).
func (t *tree) offer(v sched.View, m int, p policy, pl *sched.Plan) {
	t.sync()
	t.root.refreshDemand()
	var got sched.Task
	if referenceWalk != nil {
		got = referenceWalk(v, t, m, p)
	} else {
		got = t.visit(v, t.root, m, p)
	}
	if !got.IsZero() {
		pl.Place(got, m)
		if a := t.apps[got.Job()]; a != nil {
			t.touch(a) // the placement took one of its waiting tasks
		}
	}
}

// referenceWalk, when set (by tests only), replaces visit by the original
// walk that scans every app of a leaf per offer.
var referenceWalk func(v sched.View, t *tree, m int, p policy) sched.Task

func (t *tree) visit(v sched.View, q *queue, m int, p policy) (got sched.Task) {
	if len(q.children) > 0 {
		q.kids = q.kids[:0]
		for _, c := range q.children {
			if c.waiting > 0 && p.open(c) {
				q.kids = append(q.kids, c)
			}
		}
		bestFirst(q.kids, p.before, func(c *queue) bool {
			got = t.visit(v, c, m, p)
			return !got.IsZero()
		})
		return got
	}
	q.ready.each(func(a *app) bool {
		got = p.assign(v, a, m)
		return !got.IsZero()
	})
	return got
}

// fairOrder orders siblings by FairSharePolicy and keeps every queue within
// its max share (fitsInMaxShare); fair and delay use it.
type fairOrder struct{}

func (fairOrder) open(q *queue) bool      { return float64(q.running+1) <= q.MaxShare }
func (fairOrder) before(a, b *queue) bool { return fairBefore(a.share(), b.share()) }

// base is what fair, capacity and delay share: the network policy and the
// queue tree, which lifecycle events keep current.
type base struct {
	flows
	tree *tree
}

func (b *base) Observe(v sched.View, e sched.Event, p *sched.Plan) { b.tree.observe(e) }

// Err is the first job that could not be routed to a leaf queue (unknown
// queue without auto-creation, or a parent queue). Such jobs are never
// placed, so the run ends as stalled; this says why.
func (b *base) Err() error { return b.tree.err }
