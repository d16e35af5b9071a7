package sim

import (
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/internal/state"
	"github.com/netsched/netsched/sched"
)

// refRater is the rater's former collection, kept as the reference: at
// every update it rebuilds the list of every live flow, reads each route
// from the network, groups the flows by job with a map and sorts the jobs.
type refRater struct {
	r         *rater
	replace   bool // hand the policy the reference's input instead
	live      []*state.FlowRec
	gone      map[*state.FlowRec]bool
	doneBytes map[*state.Job]float64
	cs        []sched.Coflow
	recs      [][]*state.FlowRec
	links     []int
	at        []int
	updates   int
}

// raterRefErr is the first difference a reference found; raterRefUpdates
// counts the updates checked.
var (
	raterRefErr     error
	raterRefUpdates int
)

// SetRaterReference makes the rates of the runs that follow checked at
// every update against the reference (replace false), or computed by it
// (replace true). It returns a function that restores the rater and gives
// the first difference found and the number of updates checked.
func SetRaterReference(replace bool) (restore func() (error, int)) {
	raterRefErr, raterRefUpdates = nil, 0
	newRaterRef = func(r *rater) raterRef {
		return &refRater{r: r, replace: replace, gone: map[*state.FlowRec]bool{}, doneBytes: map[*state.Job]float64{}}
	}
	return func() (error, int) {
		newRaterRef = nil
		return raterRefErr, raterRefUpdates
	}
}

func (f *refRater) started(rec *state.FlowRec) { f.live = append(f.live, rec) }

func (f *refRater) finished(rec *state.FlowRec) {
	f.gone[rec] = true
	f.doneBytes[rec.Task.Job()] += rec.Bytes
}

func (f *refRater) collected() {
	f.collect()
	raterRefUpdates++
	if f.replace {
		f.r.cs, f.r.recs = f.cs, f.recs
		return
	}
	if err := f.compare(); err != nil && raterRefErr == nil {
		raterRefErr = fmt.Errorf("t=%v: %v", f.r.e.now, err)
	}
}

// compare reports how the rater's input differs from the reference's, to
// the bit.
func (f *refRater) compare() error {
	r := f.r
	if len(r.cs) != len(f.cs) || len(r.recs) != len(f.recs) {
		return fmt.Errorf("%d coflows, want %d", len(r.cs), len(f.cs))
	}
	for i, want := range f.cs {
		got := r.cs[i]
		if got.Job != want.Job || math.Float64bits(got.Sent) != math.Float64bits(want.Sent) || len(got.Flows) != len(want.Flows) || len(r.recs[i]) != len(f.recs[i]) {
			return fmt.Errorf("coflow %d: job %v sent %v with %d flows, want job %v sent %v with %d flows",
				i, got.Job.Seq(), got.Sent, len(got.Flows), want.Job.Seq(), want.Sent, len(want.Flows))
		}
		for k, w := range want.Flows {
			g := got.Flows[k]
			if g.Task != w.Task || g.Src != w.Src || math.Float64bits(g.Size) != math.Float64bits(w.Size) ||
				math.Float64bits(g.Remaining) != math.Float64bits(w.Remaining) || !slices.Equal(g.Links, w.Links) ||
				g.Rate != w.Rate || r.recs[i][k] != f.recs[i][k] {
				return fmt.Errorf("coflow %d (job %d) flow %d: %+v, want %+v", i, want.Job.Seq(), k, g, w)
			}
			// The rate the rater believes the flow is pinned to is the
			// network's.
			old, pinned := r.q.Pinned(f.recs[i][k].ID)
			if cached := r.act[i].rates[k]; pinned != (cached >= 0) || pinned && old != cached {
				return fmt.Errorf("coflow %d (job %d) flow %d: pinned to %v (%v), the rater holds %v", i, want.Job.Seq(), k, old, pinned, cached)
			}
		}
	}
	return nil
}

// collect is the former rater.collect.
func (f *refRater) collect() {
	r := f.r
	kept := f.live[:0]
	for _, rec := range f.live {
		if !f.gone[rec] {
			kept = append(kept, rec)
		}
	}
	clear(f.live[len(kept):])
	f.live = kept
	clear(f.gone)
	for j := range f.doneBytes {
		if j.Finish >= 0 {
			delete(f.doneBytes, j)
		}
	}
	f.links, f.at = f.links[:0], f.at[:0]
	for _, rec := range f.live {
		f.at = append(f.at, len(f.links))
		f.links = r.q.Route(rec.ID, f.links)
	}
	f.at = append(f.at, len(f.links))
	var jobs []sched.Coflow
	var recs [][]*state.FlowRec
	byJob := map[*state.Job]int{}
	for n, rec := range f.live {
		j := rec.Task.Job()
		i, ok := byJob[j]
		if !ok {
			i = len(jobs)
			byJob[j] = i
			jobs = append(jobs, sched.Coflow{Job: sched.WrapJob(j), Sent: f.doneBytes[j]})
			recs = append(recs, nil)
		}
		rem := r.e.net.Remaining(rec.ID)
		jobs[i].Sent += rec.Bytes - rem
		jobs[i].Flows = append(jobs[i].Flows, sched.CoflowFlow{Task: sched.WrapTask(rec.Task), Src: rec.Src,
			Size: rec.Bytes, Remaining: rem, Links: f.links[f.at[n]:f.at[n+1]:f.at[n+1]]})
		recs[i] = append(recs[i], rec)
	}
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return jobs[a].Job.Seq() - jobs[b].Job.Seq() })
	f.cs, f.recs = f.cs[:0], f.recs[:0]
	for _, i := range order {
		f.cs = append(f.cs, jobs[i])
		f.recs = append(f.recs, recs[i])
	}
}
