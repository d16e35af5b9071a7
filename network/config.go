package network

import (
	"fmt"
	"math"
	"slices"
)

// The defaults of a network's settings. New applies none of them: a
// scenario's resolution gives every absent key its default
// (scenario.resolveNetwork), so that a zero written by a user is read as
// zero.
const (
	DefaultOversubscription  = 1.0
	DefaultOCSPortSpeed      = 10e9 / 8 // 10 Gbps in bytes/s
	DefaultOCSInterval       = 1.0      // s
	DefaultOCSDelay          = 0.010    // s
	DefaultElephantThreshold = 1.125e9  // bytes
	DefaultMonitorInterval   = 1.0      // s
	DefaultMonitorWindow     = 5.0      // s
	DefaultMonitorThreshold  = 0.8
)

// DefaultOCS is the optical circuit switch with every default.
func DefaultOCS() OCSConfig {
	return OCSConfig{PortSpeed: DefaultOCSPortSpeed, Interval: DefaultOCSInterval, Delay: DefaultOCSDelay, ElephantThreshold: DefaultElephantThreshold}
}

// DefaultMonitor is the network monitor with every default.
func DefaultMonitor() MonitorConfig {
	return MonitorConfig{Interval: DefaultMonitorInterval, Window: DefaultMonitorWindow, Threshold: DefaultMonitorThreshold}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// checkConfig validates cfg and returns a copy with Kind and Racks filled
// in when left zero (the Go zero values of the API: a nonblocking network,
// racks up to the highest rack of a machine). Every other value is taken as
// given. Fields that do not apply to the chosen Kind are ignored.
func checkConfig(cfg Config) (Config, error) {
	switch cfg.Kind {
	case "":
		cfg.Kind = NonBlocking
	case NonBlocking, TwoTier, Hybrid:
	default:
		return cfg, fmt.Errorf("network: unknown topology kind %q (want %q, %q or %q)", cfg.Kind, NonBlocking, TwoTier, Hybrid)
	}
	if len(cfg.Machines) == 0 {
		return cfg, fmt.Errorf("network: no machines")
	}
	cfg.Machines = slices.Clone(cfg.Machines) // the caller may reuse its slice
	if cfg.Racks < 0 {
		return cfg, fmt.Errorf("network: Racks = %d is negative", cfg.Racks)
	}
	maxRack := 0
	for i, m := range cfg.Machines {
		if !finite(m.NICUp) || m.NICUp <= 0 || !finite(m.NICDown) || m.NICDown <= 0 {
			return cfg, fmt.Errorf("network: machine %d: NIC speeds up=%v down=%v bytes/s must be positive and finite", i, m.NICUp, m.NICDown)
		}
		if m.Rack < 0 {
			return cfg, fmt.Errorf("network: machine %d: rack %d is negative", i, m.Rack)
		}
		if cfg.Racks > 0 && m.Rack >= cfg.Racks {
			return cfg, fmt.Errorf("network: machine %d: rack %d out of range (Racks = %d)", i, m.Rack, cfg.Racks)
		}
		maxRack = max(maxRack, m.Rack)
	}
	if cfg.Racks == 0 {
		cfg.Racks = maxRack + 1
	}
	if !finite(cfg.Granularity) || cfg.Granularity < 0 {
		return cfg, fmt.Errorf("network: Granularity = %v must be finite and >= 0", cfg.Granularity)
	}
	if cfg.Kind == NonBlocking {
		return cfg, checkMonitor(cfg.Monitor)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"RackUp", cfg.RackUp}, {"RackDown", cfg.RackDown}} {
		if !finite(f.v) || f.v < 0 {
			return cfg, fmt.Errorf("network: %s = %v must be finite and >= 0", f.name, f.v)
		}
	}
	// The ratio derives the rack links not given.
	if derived := cfg.RackUp == 0 || cfg.RackDown == 0; derived && !(cfg.Oversubscription >= 1 && finite(cfg.Oversubscription)) {
		return cfg, fmt.Errorf("network: Oversubscription = %v must be finite and >= 1 (1: none)", cfg.Oversubscription)
	}
	if cfg.Kind == Hybrid {
		if err := checkOCS(cfg.OCS); err != nil {
			return cfg, err
		}
	}
	return cfg, checkMonitor(cfg.Monitor)
}

func checkOCS(o OCSConfig) error {
	for _, f := range []struct {
		name     string
		v        float64
		positive bool
	}{
		{"PortSpeed", o.PortSpeed, true},
		{"Interval", o.Interval, true},
		{"Delay", o.Delay, false},                         // 0: circuits change instantly
		{"ElephantThreshold", o.ElephantThreshold, false}, // 0: every flow is an elephant
	} {
		if !finite(f.v) || f.v < 0 || f.positive && f.v == 0 {
			want := ">= 0"
			if f.positive {
				want = "> 0"
			}
			return fmt.Errorf("network: OCS.%s = %v must be finite and %s", f.name, f.v, want)
		}
	}
	return nil
}

// checkMonitor accepts a monitor that samples (Interval > 0) or none
// (Interval < 0); Interval 0 would sample without end at one instant.
func checkMonitor(m MonitorConfig) error {
	if !finite(m.Interval) || m.Interval == 0 {
		return fmt.Errorf("network: Monitor.Interval = %v must be finite and not 0 (> 0: seconds between samples; < 0: no monitor)", m.Interval)
	}
	if m.Interval < 0 {
		return nil
	}
	if !finite(m.Window) || m.Window < 0 {
		return fmt.Errorf("network: Monitor.Window = %v must be finite and >= 0 (0: no smoothing)", m.Window)
	}
	if !finite(m.Threshold) || m.Threshold < 0 || m.Threshold > 1 {
		return fmt.Errorf("network: Monitor.Threshold = %v must be between 0 and 1", m.Threshold)
	}
	return nil
}
