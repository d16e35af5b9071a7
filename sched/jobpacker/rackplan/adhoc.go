package rackplan

import (
	"fmt"

	"github.com/netsched/netsched/sched"
	_ "github.com/netsched/netsched/sched/queue" // registers fair
)

// Adhoc schedules the jobs a plan does not know with the Fair scheduler
// (package queue's fair, default parameters: one queue, job-level fair
// sharing): "the ad-hoc jobs are then scheduled based on previous
// scheduling scheme (e.g., Fair)" (JobPacker §4.1; Corral's ad-hoc jobs
// likewise run under the cluster's default scheduler).
//
// With HeavyInput > 0 the ad-hoc jobs are split into two Fair schedulers:
// jobs whose estimated input exceeds HeavyInput are treated as
// shuffle-heavy (JobPacker §4.4: most shuffle-heavy jobs of the Facebook
// traces have over 1 GB of input), the others as light. Each Fair
// instance sees only the events of its own jobs, so its fair order is
// among them.
type Adhoc struct {
	HeavyInput float64
	light      *fairInstance
	heavy      *fairInstance
	of         map[sched.Job]*fairInstance
}

type fairInstance struct {
	s   sched.Scheduler
	obs sched.Observer
	err sched.Failer
}

func newFair() (*fairInstance, error) {
	s, err := sched.NewScheduler("fair", nil)
	if err != nil {
		return nil, err
	}
	obs, ok := s.(sched.Observer)
	if !ok {
		return nil, fmt.Errorf("fair does not observe events")
	}
	fi := &fairInstance{s: s, obs: obs}
	fi.err, _ = s.(sched.Failer)
	return fi, nil
}

// NewAdhoc builds the Fair scheduler(s) for the ad-hoc jobs.
func NewAdhoc(heavyInput float64) (*Adhoc, error) {
	a := &Adhoc{HeavyInput: heavyInput, of: map[sched.Job]*fairInstance{}}
	var err error
	if a.light, err = newFair(); err != nil {
		return nil, err
	}
	a.heavy = a.light
	if heavyInput > 0 {
		if a.heavy, err = newFair(); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// Observe forwards an event of an ad-hoc job to its Fair scheduler; call
// it only for jobs the plan does not know. A job is classed when it
// arrives.
func (a *Adhoc) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	fi := a.of[e.Job]
	if e.Kind == sched.JobArrived {
		fi = a.light
		if a.HeavyInput > 0 && InputEstimate(v, e.Job) > a.HeavyInput {
			fi = a.heavy
		}
		a.of[e.Job] = fi
	}
	if fi == nil {
		return
	}
	fi.obs.Observe(v, e, p)
	if e.Kind == sched.JobFinished {
		delete(a.of, e.Job)
	}
}

// Heavy reports whether an active ad-hoc job is treated as shuffle-heavy.
func (a *Adhoc) Heavy(j sched.Job) bool { return a.HeavyInput > 0 && a.of[j] == a.heavy }

// Offer offers machine m to the ad-hoc jobs, the shuffle-heavy ones first
// unless lightFirst, and reports whether a task was placed.
func (a *Adhoc) Offer(v sched.View, m int, p *sched.Plan, lightFirst bool) bool {
	order := [2]*fairInstance{a.heavy, a.light}
	if lightFirst {
		order = [2]*fairInstance{a.light, a.heavy}
	}
	for i, fi := range order {
		if i == 1 && fi == order[0] {
			break
		}
		before := p.Placed()
		fi.s.Offer(v, m, p)
		if p.Placed() > before {
			return true
		}
	}
	return false
}

// Err is the first error of a Fair scheduler (a job naming an unknown
// queue).
func (a *Adhoc) Err() error {
	for _, fi := range []*fairInstance{a.light, a.heavy} {
		if fi.err != nil {
			if err := fi.err.Err(); err != nil {
				return err
			}
		}
	}
	return nil
}

// InputEstimate is a job's estimated DFS input: the knowledge model's
// estimate of every task's file input.
func InputEstimate(v sched.View, j sched.Job) float64 {
	in := 0.0
	for _, st := range j.Stages() {
		if !st.HasFileInput() {
			continue
		}
		for _, t := range st.Tasks() {
			in += v.Estimate(t).Input
		}
	}
	return in
}
