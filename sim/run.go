package sim

import (
	"context"
	"time"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
)

// Run builds the scenario's scheduler and simulates it: the library entry
// point behind `netsched run`.
func Run(sc *scenario.Scenario) (*metrics.Result, error) {
	s, err := sched.NewScheduler(sc.Scheduler.Name, sc.Scheduler.Params)
	if err != nil {
		return nil, err
	}
	return RunWith(sc, s)
}

// RunWith simulates sc with an already built scheduler (library use).
func RunWith(sc *scenario.Scenario, s sched.Scheduler) (*metrics.Result, error) {
	return runWith(context.Background(), sc, s, nil)
}

func runWith(ctx context.Context, sc *scenario.Scenario, s sched.Scheduler, report func(Progress)) (*metrics.Result, error) {
	e, err := New(sc, s)
	if err != nil {
		return nil, err
	}
	e.progress = report
	e.done = ctx.Done()
	start := time.Now()
	res, err := e.Run()
	if err != nil {
		return nil, err
	}
	wall := time.Since(start).Seconds()
	res.Timing = metrics.Timing{WallSeconds: wall, Decisions: e.stats.decisions, SchedulerSeconds: e.schedTime.Seconds()}
	if e.stats.decisions > 0 {
		res.Timing.MicrosPerDecision = 1e6 * res.Timing.SchedulerSeconds / float64(e.stats.decisions)
	}
	if wall > 0 {
		res.Timing.EventsPerSecond = float64(e.stats.events) / wall
	}
	if nw, ok := e.net.(*network.Network); ok && nw.Allocations > 0 {
		res.Timing.Allocations = nw.Allocations
		res.Timing.BundlesPerAllocation = float64(nw.AllocatedBundles) / float64(nw.Allocations)
	}
	return res, nil
}
