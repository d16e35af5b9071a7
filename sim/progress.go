package sim

import (
	"context"
	"time"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
)

// Progress is a long run's state, for a progress line: the simulated time,
// the jobs finished and arrived so far, and the events handled.
type Progress struct {
	Now                   float64
	JobsDone, JobsArrived int
	Events                int
}

// RunWithProgress is RunWith calling report about once a second of wall
// time while the run goes (never for runs that end sooner). Reports are
// read-only: the run's results are the same with or without them.
func RunWithProgress(sc *scenario.Scenario, s sched.Scheduler, report func(Progress)) (*metrics.Result, error) {
	return runWith(context.Background(), sc, s, report)
}

// RunContext is RunWithProgress (report may be nil) that stops when ctx is
// done, as engine.until would at that instant: the result holds what
// finished, with Summary.StoppedAt and Interrupted set. Where it stops
// depends on the wall clock, so such a result is not reproducible. ctx is
// read after every step of the simulation, every event of an instant and
// every 1024 slot offers and tasks built: every loop whose length the
// workload sets.
func RunContext(ctx context.Context, sc *scenario.Scenario, s sched.Scheduler, report func(Progress)) (*metrics.Result, error) {
	return runWith(ctx, sc, s, report)
}

// interrupted reports whether the run's context is done; once it is, the
// run stops at the first check and e.interrupt stays set.
func (e *Engine) interrupted() bool {
	if e.interrupt || e.done == nil {
		return e.interrupt
	}
	select {
	case <-e.done:
		e.interrupt = true
	default:
	}
	return e.interrupt
}

// interruptedAt is interrupted read on every 1024th step i of a loop, which
// keeps the check off the cost of short iterations.
func (e *Engine) interruptedAt(i int) bool { return i&1023 == 0 && e.interrupted() }

// reportProgress calls the progress function when a second of wall time
// has passed; Run calls it once every 1024 passes, to read the clock
// rarely.
func (e *Engine) reportProgress() {
	now := time.Now()
	if e.stats.lastReport.IsZero() {
		e.stats.lastReport = now
		return
	}
	if now.Sub(e.stats.lastReport) < time.Second {
		return
	}
	e.stats.lastReport = now
	e.progress(Progress{Now: e.now, JobsDone: len(e.metrics.jobs), JobsArrived: e.nextSeq, Events: e.stats.events})
}
