package network

import (
	"fmt"
	"math"
	"slices"
)

// Defaults applied by New to zero-valued Config fields.
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

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// withDefaults validates cfg and returns a copy with every default applied.
// Fields that do not apply to the chosen Kind are ignored.
func withDefaults(cfg Config) (Config, error) {
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
		return cfg, checkMonitor(&cfg.Monitor)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"RackUp", cfg.RackUp}, {"RackDown", cfg.RackDown}, {"Oversubscription", cfg.Oversubscription}} {
		if !finite(f.v) || f.v < 0 {
			return cfg, fmt.Errorf("network: %s = %v must be finite and >= 0", f.name, f.v)
		}
	}
	if cfg.Oversubscription == 0 {
		cfg.Oversubscription = DefaultOversubscription
	}
	if cfg.Kind == Hybrid {
		if err := checkOCS(&cfg.OCS); err != nil {
			return cfg, err
		}
	}
	return cfg, checkMonitor(&cfg.Monitor)
}

func checkOCS(o *OCSConfig) error {
	for _, f := range []struct {
		name string
		v    *float64
		def  float64
	}{
		{"PortSpeed", &o.PortSpeed, DefaultOCSPortSpeed},
		{"Interval", &o.Interval, DefaultOCSInterval},
		{"ElephantThreshold", &o.ElephantThreshold, DefaultElephantThreshold},
	} {
		if !finite(*f.v) || *f.v < 0 {
			return fmt.Errorf("network: OCS.%s = %v must be finite and >= 0", f.name, *f.v)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	// Delay: 0 takes the default; a negative value asks for instant circuits.
	switch {
	case !finite(o.Delay):
		return fmt.Errorf("network: OCS.Delay = %v must be finite", o.Delay)
	case o.Delay == 0:
		o.Delay = DefaultOCSDelay
	case o.Delay < 0:
		o.Delay = 0
	}
	return nil
}

func checkMonitor(m *MonitorConfig) error {
	if !finite(m.Interval) {
		return fmt.Errorf("network: Monitor.Interval = %v must be finite", m.Interval)
	}
	if m.Interval == 0 {
		m.Interval = DefaultMonitorInterval
	}
	if !finite(m.Window) || m.Window < 0 {
		return fmt.Errorf("network: Monitor.Window = %v must be finite and >= 0", m.Window)
	}
	if m.Window == 0 {
		m.Window = DefaultMonitorWindow
	}
	if !finite(m.Threshold) || m.Threshold < 0 {
		return fmt.Errorf("network: Monitor.Threshold = %v must be finite and >= 0", m.Threshold)
	}
	if m.Threshold == 0 {
		m.Threshold = DefaultMonitorThreshold
	}
	return nil
}
