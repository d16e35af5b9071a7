package pushbox

import (
	"fmt"
	"math"
	"strings"

	"github.com/netsched/netsched/sched"
)

// Config holds PushBox's parameters; zero values are not meaningful, build
// one with DefaultConfig and change fields.
type Config struct {
	// M is Peña's controlled concurrency: the number of input-phase tasks per
	// machine above which only the wildcard admits another (§4, default 3).
	M int `param:"m" min:"1" help:"controlled concurrency: input-phase tasks per machine before only the wildcard admits more (§4)"`
	// Policy is the queue policy of the single queue: "fair" or "fifo".
	Policy string `param:"policy" choices:"fair|fifo" help:"queue policy: fair or fifo (§2.1)"`
	// SmallFIFO, when positive, makes a multi-queue: jobs whose coflow is
	// smaller than this many bytes go to a FIFO queue, the others to a Fair
	// queue, and the two queues share slots fairly (§7.3, Fig. 9c).
	SmallFIFO float64 `param:"small_fifo" unit:"B" min:"0" help:"multi-queue: jobs whose coflow is below this size (e.g. 100MB) form a FIFO queue beside a Fair queue (§7.3; policy is then ignored); 0 = one queue"`
	// LocalityDelay is delay scheduling's skip threshold for stages that
	// read files, as a fraction of the machines (§5.1 "existing locality
	// policies"): a job skipped ceil(LocalityDelay x machines) times takes
	// a non-local slot. The default 0.231 gives the same D as queue's delay
	// (baselines.md §3.3: 95% locality for 20-task jobs, 3 replicas).
	LocalityDelay float64 `param:"locality_delay" min:"0" help:"delay scheduling for file-reading stages: skipped opportunities before a non-local slot, as a fraction of the machines (default: the same D as queue's delay)"`
	// RateWindow is the time constant in seconds of the EMA of each
	// machine's receive rate (§4).
	RateWindow float64 `param:"rate_window" unit:"s" help:"time constant of the EMA of each machine's receive rate (§4)"`
	// RackLocal: "auto" treats rack-local sources as local when the network
	// is oversubscribed (§4), "on" and "off" force it.
	RackLocal string `param:"rack_local" choices:"auto|on|off" help:"count rack-local sources as local, intra-rack flows in the lowest class: auto (when oversubscribed), on, off"`
	Ablation  `param:"ablate" help:"switch components off (§7.2): any of GP, RS, H, W joined by + (e.g. H+W)"`
	// Check asserts the priority bookkeeping after every placement and
	// input-phase end (also on whenever the run is in check mode).
	Check bool `param:"check" help:"assert the per-machine priority order after every placement and input-phase end"`
}

// Ablation switches PushBox's components off (§7.2): GP global
// smallest-coflow-first priority in size bins instead of Peña's
// per-machine ranks, RS random task selection, H the not-hinder test off,
// W the wildcard off.
type Ablation struct{ GP, RS, H, W bool }

// DefaultConfig is PushBox as in the paper: m = 3, one Fair queue.
func DefaultConfig() Config {
	return Config{M: 3, Policy: Fair, LocalityDelay: 0.231, RateWindow: 5, RackLocal: "auto"}
}

// Queue policies.
const (
	Fair = "fair"
	FIFO = "fifo"
)

// Validate checks what no single field's tag states.
func (c *Config) Validate() error {
	if !(c.RateWindow > 0) || math.IsInf(c.RateWindow, 0) {
		return sched.BadParam("rate_window", c.RateWindow, "a duration > 0")
	}
	return nil
}

// SetParam reads `ablate`: components joined by + ("GP", "H+W", ...).
func (a *Ablation) SetParam(raw any) error {
	s, ok := raw.(string)
	if !ok {
		return fmt.Errorf("got %v, expected components GP, RS, H or W joined by +", raw)
	}
	var out Ablation
	if s == "none" {
		*a = out
		return nil
	}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '+' || r == ',' || r == ' ' }) {
		switch strings.ToUpper(part) {
		case "GP":
			out.GP = true
		case "RS":
			out.RS = true
		case "H":
			out.H = true
		case "W":
			out.W = true
		default:
			return fmt.Errorf("got %s, expected components GP, RS, H or W joined by + (unknown %q)", s, part)
		}
	}
	*a = out
	return nil
}

// String is the ablation as `ablate` writes it ("none" for the full PushBox).
func (a Ablation) String() string {
	var parts []string
	for _, c := range []struct {
		on   bool
		name string
	}{{a.GP, "GP"}, {a.RS, "RS"}, {a.H, "H"}, {a.W, "W"}} {
		if c.on {
			parts = append(parts, c.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}
