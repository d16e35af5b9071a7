package network

import (
	"strings"
	"testing"
)

// Controller periods below MinInterval are refused: `ocs: {interval: 1ns}`
// made a billion reconfigurations per simulated second (the run never
// ended), and a monitor sampling every nanosecond as many samples.
func TestIntervalsBelowMinimumRefused(t *testing.T) {
	base := Config{Kind: Hybrid, Machines: machines(2, 1, 100), RackUp: 10, RackDown: 10,
		OCS: DefaultOCS(), Monitor: DefaultMonitor()}
	for _, c := range []struct {
		name string
		set  func(*Config)
		want string // "" for accepted
	}{
		{"ocs 1ns", func(c *Config) { c.OCS.Interval = 1e-9 }, "OCS.Interval = 1e-09s is below the minimum of 1ms"},
		{"ocs just below 1ms", func(c *Config) { c.OCS.Interval = 0.999e-3 }, "below the minimum of 1ms"},
		{"ocs 1ms", func(c *Config) { c.OCS.Interval = 1e-3 }, ""},
		{"monitor 1ns", func(c *Config) { c.Monitor.Interval = 1e-9 }, "Monitor.Interval = 1e-09s is below the minimum of 1ms"},
		{"monitor 1ms", func(c *Config) { c.Monitor.Interval = 1e-3 }, ""},
		{"monitor off", func(c *Config) { c.Monitor.Interval = -1 }, ""},
		{"two-tier ignores the ocs", func(c *Config) { c.Kind = TwoTier; c.OCS.Interval = 1e-9 }, ""},
	} {
		cfg := base
		c.set(&cfg)
		_, err := New(cfg)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// A link slowed to nearly nothing (a tiny goodput) puts the next completion
// past 2^53 monitor intervals: the resting monitor's skip counted samples
// one by one towards it, deaf to SIGTERM. The network stops with an error.
func TestMonitorSkipBeyondExactSamples(t *testing.T) {
	n := mustNew(t, Config{Kind: NonBlocking, Machines: machines(2, 1, 1e-290), Monitor: MonitorConfig{Interval: 1}})
	mustStart(t, n, 0, FlowSpec{Src: 0, Dst: 1, Size: 1000})
	for i := 0; i < 100_000 && n.Err() == nil; i++ {
		n.AdvanceTo(n.NextEvent(), nil)
	}
	if err := n.Err(); err == nil || !strings.Contains(err.Error(), "a link is probably far slower than intended") {
		t.Fatalf("error %v, want the next event named beyond the exact samples", err)
	}
	before := n.Now()
	n.AdvanceTo(before+1, nil)
	if n.Now() != before {
		t.Errorf("the clock moved from %g to %g after the error", before, n.Now())
	}
}
