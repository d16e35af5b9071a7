package network

import "fmt"

// MinInterval is the shortest period of a network controller: the OCS
// reconfiguration interval and the monitor's sampling interval. Each
// period is a step of the simulation whatever else happens, so 1 ns made
// a second of simulated time a billion steps (a run that never ended);
// at 1 ms they add at most a thousand steps per simulated second each.
const MinInterval = 1e-3 // s

// checkIntervals refuses controller periods below MinInterval (cfg has
// its defaults applied: a disabled monitor has a negative interval).
func checkIntervals(cfg Config) error {
	if cfg.Kind == Hybrid && cfg.OCS.Interval < MinInterval {
		return fmt.Errorf("network: OCS.Interval = %gs is below the minimum of 1ms (each reconfiguration is a simulation step)", cfg.OCS.Interval)
	}
	if m := cfg.Monitor.Interval; m > 0 && m < MinInterval {
		return fmt.Errorf("network: Monitor.Interval = %gs is below the minimum of 1ms (each sample is a simulation step)", m)
	}
	return nil
}
