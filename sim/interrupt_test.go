package sim_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/workload"
)

// cancelling wraps a scheduler: it cancels the run's context at its
// cancelAt-th call (offer or job arrival) and counts the calls after.
type cancelling struct {
	inner    sched.Scheduler
	cancel   context.CancelFunc
	cancelAt int
	calls    int
	after    int
}

func (c *cancelling) count() {
	c.calls++
	if c.calls == c.cancelAt {
		c.cancel()
	} else if c.calls > c.cancelAt {
		c.after++
	}
}

func (c *cancelling) Offer(v sched.View, m int, p *sched.Plan) {
	c.count()
	c.inner.Offer(v, m, p)
}

func (c *cancelling) Observe(v sched.View, e sched.Event, p *sched.Plan) {
	if e.Kind == sched.JobArrived {
		c.count()
	}
}

// A cancelled run stops within a bounded amount of work, whatever the
// workload puts in one instant: the context was read every 1024 passes
// only, so a pass of 20,000 offers, or 20,000 jobs arriving at the same
// instant, ran to its end first (a hybrid network of 10,000 racks went on
// 868 s after SIGTERM). Counted in calls, not wall time.
func TestInterruptStopsWithinBoundedWork(t *testing.T) {
	for _, c := range []struct {
		name     string
		machines int
		jobs     int // arriving at t=0
		jobTasks int
	}{
		{"one pass of many offers", 5000, 1, 20000},
		{"many arrivals at one instant", 1, 20000, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc, err := scenario.Parse(t.Name()+".yaml", []byte(fmt.Sprintf(`
cluster: {racks: 1, machines_per_rack: %d, slots_per_machine: 4, nic: 1Gbps}
workload: {jobs: [{id: A, stages: [{id: s, count: 1}]}]}
`, c.machines)), ".")
			if err != nil {
				t.Fatal(err)
			}
			jobs := make([]workload.Job, c.jobs)
			for i := range jobs {
				jobs[i] = workload.Job{ID: fmt.Sprint("j", i), Stages: []workload.Stage{{ID: "s",
					Tasks: slices.Repeat([]workload.Task{{Compute: 1, Pin: workload.NoPin}}, c.jobTasks)}}}
			}
			sc.OpenWorkload = func() (workload.Source, error) { return &workload.SliceSource{Jobs: jobs}, nil }
			fifo, err := sched.NewScheduler("fifo", nil)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s := &cancelling{inner: fifo, cancel: cancel, cancelAt: 100}
			res, err := sim.RunContext(ctx, sc, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Summary.Interrupted {
				t.Errorf("the run was not marked interrupted")
			}
			// Offers are checked every 1024 machines (of up to 4 slots).
			if s.after > 4*1024 {
				t.Errorf("%d scheduler calls after the cancellation, want at most %d", s.after, 4*1024)
			}
		})
	}
}
