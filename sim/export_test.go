package sim

import (
	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
)

// SetNewNetwork substitutes the network model of the runs that follow (for
// benchmarks of the engine alone); it returns a function restoring it.
func SetNewNetwork(f func(network.Config) (network.API, error)) (restore func()) {
	old := newNetwork
	newNetwork = f
	return func() { newNetwork = old }
}

// TakeEveryTick makes the runs that follow take ticks one by one (a
// RepeatTicker's Ticks unused); it returns a function restoring it.
func TakeEveryTick() (restore func()) {
	everyTick = true
	return func() { everyTick = false }
}

// RunCountingEdgeVisits runs sc with s and also returns how many tasks the
// engine visited along stage edges.
func RunCountingEdgeVisits(sc *scenario.Scenario, s sched.Scheduler) (*metrics.Result, int, error) {
	e, err := New(sc, s)
	if err != nil {
		return nil, 0, err
	}
	res, err := e.Run()
	return res, e.stats.edgeVisits, err
}
