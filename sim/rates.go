package sim

import (
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/internal/state"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/sched"
)

// rater drives a sched.CoflowRater: whenever flows started or finished at
// an instant (once, after all of that instant's changes) and at the time
// the policy asked for, it hands the policy every job's flows in flight
// with their routes, and pins each flow to the rate it got, passing on only
// the rates that changed. A nil *rater does nothing.
type rater struct {
	e     *Engine
	pol   sched.CoflowRater
	q     network.Querier
	caps  []float64 // link capacities, indexed like network Links()
	dirty bool      // flows started or finished since the last update
	next  float64   // the policy's next own event
	// live lists the flows in flight in start order; gone marks finished
	// ones until the next update drops them.
	live []*state.FlowRec
	gone map[*state.FlowRec]bool
	// doneBytes is the bytes of each running job's finished flows.
	doneBytes map[*state.Job]float64

	cs    []sched.Coflow
	recs  [][]*state.FlowRec // recs[i][k] is the flow of cs[i].Flows[k]
	links []int              // backing array of the flows' Links
	at    []int              // live flow n's links are links[at[n]:at[n+1]]
}

// newRater wires a rate-setting network policy. It refuses hybrid
// networks: explicit coflow rates would need the circuit schedule, which
// moves elephants between routes on its own.
func (e *Engine) newRater(pol sched.CoflowRater) (*rater, error) {
	if e.sc.Network.Kind == network.Hybrid {
		return nil, fmt.Errorf("network policy %s sets explicit coflow rates, which a hybrid (OCS) network cannot take: the circuit schedule moves flows between routes; use a nonblocking or two-tier network", e.sc.Scheduler.Network)
	}
	q, ok := e.net.(network.Querier)
	if !ok {
		return nil, fmt.Errorf("network policy %s needs flow routes, which this network model does not give", e.sc.Scheduler.Network)
	}
	r := &rater{e: e, pol: pol, q: q, next: inf, gone: map[*state.FlowRec]bool{}, doneBytes: map[*state.Job]float64{}}
	for _, l := range e.net.Links() {
		r.caps = append(r.caps, l.Capacity)
	}
	return r, nil
}

// nextTime is when the policy wants to be asked again.
func (r *rater) nextTime() float64 {
	if r == nil {
		return inf
	}
	return r.next
}

// started records a flow the engine just started.
func (r *rater) started(rec *state.FlowRec) {
	if r != nil {
		r.live = append(r.live, rec)
		r.dirty = true
	}
}

// finished records a flow that completed.
func (r *rater) finished(rec *state.FlowRec) {
	if r != nil {
		r.gone[rec] = true
		r.doneBytes[rec.Task.Job()] += rec.Bytes
		r.dirty = true
	}
}

// update asks the policy for new rates if flows changed at this instant or
// its own event is due, and applies them.
func (r *rater) update() {
	if r == nil || !r.dirty && r.e.now < r.next {
		return
	}
	r.dirty = false
	r.collect()
	next, err := r.pol.CoflowRates(r.e.view, r.caps, r.cs)
	if err != nil {
		r.e.fail("network policy %s: %v", r.e.sc.Scheduler.Network, err)
		return
	}
	if !(next > r.e.now) {
		r.e.fail("network policy %s asked to be called again at t=%gs, not after now", r.e.sc.Scheduler.Network, next)
		return
	}
	r.next = next
	for i, c := range r.cs {
		for k, f := range c.Flows {
			rec := r.recs[i][k]
			if !(f.Rate >= 0) || math.IsInf(f.Rate, 1) {
				r.e.fail("network policy %s gave the flow of %s from machine %d the rate %g", r.e.sc.Scheduler.Network, rec.Task, rec.Src, f.Rate)
				return
			}
			if old, pinned := r.q.Pinned(rec.ID); !pinned || old != f.Rate {
				r.e.net.SetRate(r.e.now, rec.ID, f.Rate)
			}
		}
	}
}

// collect groups the flows in flight by job, jobs in arrival order and
// flows in start order, with their routes and progress.
func (r *rater) collect() {
	kept := r.live[:0]
	for _, rec := range r.live {
		if !r.gone[rec] {
			kept = append(kept, rec)
		}
	}
	clear(r.live[len(kept):])
	r.live = kept
	clear(r.gone)
	for j := range r.doneBytes {
		if j.Finish >= 0 {
			delete(r.doneBytes, j)
		}
	}
	// Routes first: the Links slices point into r.links once it is full.
	r.links, r.at = r.links[:0], r.at[:0]
	for _, rec := range r.live {
		r.at = append(r.at, len(r.links))
		r.links = r.q.Route(rec.ID, r.links)
	}
	r.at = append(r.at, len(r.links))
	var jobs []sched.Coflow
	var recs [][]*state.FlowRec
	byJob := map[*state.Job]int{}
	for n, rec := range r.live {
		j := rec.Task.Job()
		i, ok := byJob[j]
		if !ok {
			i = len(jobs)
			byJob[j] = i
			jobs = append(jobs, sched.Coflow{Job: sched.WrapJob(j), Sent: r.doneBytes[j]})
			recs = append(recs, nil)
		}
		rem := r.e.net.Remaining(rec.ID)
		jobs[i].Sent += rec.Bytes - rem
		jobs[i].Flows = append(jobs[i].Flows, sched.CoflowFlow{Task: sched.WrapTask(rec.Task), Src: rec.Src,
			Size: rec.Bytes, Remaining: rem, Links: r.links[r.at[n]:r.at[n+1]:r.at[n+1]]})
		recs[i] = append(recs[i], rec)
	}
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return jobs[a].Job.Seq() - jobs[b].Job.Seq() })
	r.cs, r.recs = r.cs[:0], r.recs[:0]
	for _, i := range order {
		r.cs = append(r.cs, jobs[i])
		r.recs = append(r.recs, recs[i])
	}
}
