package sim

import "github.com/netsched/netsched/network"

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
