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
//
// The policy's input is kept between updates rather than rebuilt: a flow's
// route is read once at its start (routes are fixed for a flow's life, as
// hybrid networks are refused), and each job keeps its flows in flight in
// start order, so an update only drops finished flows and reads every
// live flow's remaining bytes. The rate each flow is pinned to is kept
// too (the rater alone pins rates), so that no unchanged rate is looked up.
type rater struct {
	e     *Engine
	pol   sched.CoflowRater
	q     network.Querier
	caps  []float64 // link capacities, indexed like network Links()
	dirty bool      // flows started or finished since the last update
	next  float64   // the policy's next own event
	// jobs holds every running job that had a flow, in arrival order
	// (Seq), until it finishes; byJob finds a job's entry.
	jobs  []*raterJob
	byJob map[*state.Job]*raterJob
	// gone marks the flows finished since the last update.
	gone map[*state.FlowRec]bool
	// routes is the current chunk that flows' Links are cut from.
	routes []int

	cs   []sched.Coflow
	recs [][]*state.FlowRec // recs[i][k] is the flow of cs[i].Flows[k]
	act  []*raterJob        // act[i] is the job of cs[i]

	// ref, set only by tests, is the reference implementation checked
	// against (or used instead of) collect.
	ref raterRef
}

// raterJob is one job's flows in flight, as the policy sees them.
type raterJob struct {
	job   *state.Job
	wrap  sched.Job
	seq   int
	done  float64            // bytes of its finished flows
	flows []sched.CoflowFlow // in start order; Links fixed at the start
	recs  []*state.FlowRec   // recs[k] is the flow of flows[k]
	rates []float64          // the rate flows[k] is pinned to; -1: none yet
	gone  bool               // a flow finished since the last update
}

// raterRef is a test-only reference for the rater's collection.
type raterRef interface {
	started(rec *state.FlowRec)
	finished(rec *state.FlowRec)
	collected() // after collect: compare with, or replace, r.cs and r.recs
}

// newRaterRef, set only by tests, builds the reference for a new rater.
var newRaterRef func(r *rater) raterRef

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
	r := &rater{e: e, pol: pol, q: q, next: inf, byJob: map[*state.Job]*raterJob{}, gone: map[*state.FlowRec]bool{}}
	for _, l := range e.net.Links() {
		r.caps = append(r.caps, l.Capacity)
	}
	if newRaterRef != nil {
		r.ref = newRaterRef(r)
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

// started records a flow the engine just started, with its route.
func (r *rater) started(rec *state.FlowRec) {
	if r == nil {
		return
	}
	r.dirty = true
	if r.ref != nil {
		r.ref.started(rec)
	}
	j := rec.Task.Job()
	rj := r.byJob[j]
	if rj == nil {
		rj = &raterJob{job: j, wrap: sched.WrapJob(j)}
		rj.seq = rj.wrap.Seq()
		r.byJob[j] = rj
		// Usually the last: jobs mostly start fetching in arrival order.
		i := len(r.jobs)
		for i > 0 && r.jobs[i-1].seq > rj.seq {
			i--
		}
		r.jobs = slices.Insert(r.jobs, i, rj)
	}
	// A route has at most four links: cut it from a shared chunk, capped
	// so that nothing appends into the next flow's links.
	if cap(r.routes)-len(r.routes) < 8 {
		r.routes = make([]int, 0, 1024)
	}
	n := len(r.routes)
	r.routes = r.q.Route(rec.ID, r.routes)
	rj.flows = append(rj.flows, sched.CoflowFlow{Task: sched.WrapTask(rec.Task), Src: rec.Src, Size: rec.Bytes,
		Links: r.routes[n:len(r.routes):len(r.routes)]})
	rj.recs = append(rj.recs, rec)
	rj.rates = append(rj.rates, -1)
}

// finished records a flow that completed.
func (r *rater) finished(rec *state.FlowRec) {
	if r == nil {
		return
	}
	r.dirty = true
	if r.ref != nil {
		r.ref.finished(rec)
	}
	rj := r.byJob[rec.Task.Job()]
	rj.done += rec.Bytes
	rj.gone = true
	r.gone[rec] = true
}

// update asks the policy for new rates if flows changed at this instant or
// its own event is due, and applies them.
func (r *rater) update() {
	if r == nil || !r.dirty && r.e.now < r.next {
		return
	}
	r.dirty = false
	r.collect()
	if r.ref != nil {
		r.ref.collected()
	}
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
		rates := r.act[i].rates
		for k, f := range c.Flows {
			rec := r.recs[i][k]
			if !(f.Rate >= 0) || math.IsInf(f.Rate, 1) {
				r.e.fail("network policy %s gave the flow of %s from machine %d the rate %g", r.e.sc.Scheduler.Network, rec.Task, rec.Src, f.Rate)
				return
			}
			if rates[k] != f.Rate { // -1 (not pinned yet) is never a rate
				r.e.net.SetRate(r.e.now, rec.ID, f.Rate)
				rates[k] = f.Rate
			}
		}
	}
}

// collect lists the jobs with flows in flight, in arrival order, each
// with its flows in start order and their progress; it forgets finished
// flows and finished jobs.
func (r *rater) collect() {
	r.cs, r.recs, r.act = r.cs[:0], r.recs[:0], r.act[:0]
	kept := r.jobs[:0]
	for _, rj := range r.jobs {
		if rj.gone {
			rj.gone = false
			n := 0
			for k, rec := range rj.recs {
				if r.gone[rec] {
					continue
				}
				if n != k { // the flows before the first finished one stay
					rj.flows[n], rj.recs[n], rj.rates[n] = rj.flows[k], rec, rj.rates[k]
				}
				n++
			}
			clear(rj.flows[n:])
			clear(rj.recs[n:])
			rj.flows, rj.recs, rj.rates = rj.flows[:n], rj.recs[:n], rj.rates[:n]
		}
		if rj.job.Finish >= 0 {
			// Its finished flows' bytes are forgotten, as they always
			// were (a finished job has no flows in flight to send).
			rj.done = 0
			if len(rj.flows) == 0 {
				delete(r.byJob, rj.job)
				continue
			}
		}
		kept = append(kept, rj)
		if len(rj.flows) == 0 {
			continue
		}
		sent := rj.done
		for k := range rj.flows {
			f := &rj.flows[k]
			f.Remaining = r.e.net.Remaining(rj.recs[k].ID)
			f.Rate = 0
			sent += f.Size - f.Remaining
		}
		r.cs = append(r.cs, sched.Coflow{Job: rj.wrap, Sent: sent, Flows: rj.flows})
		r.recs = append(r.recs, rj.recs)
		r.act = append(r.act, rj)
	}
	clear(r.jobs[len(kept):])
	r.jobs = kept
	clear(r.gone)
}
