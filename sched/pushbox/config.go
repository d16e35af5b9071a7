package pushbox

import (
	"fmt"
	"strings"

	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/sched"
)

// Config holds PushBox's parameters; zero values are not meaningful, build
// one with DefaultConfig and change fields.
type Config struct {
	// M is Peña's controlled concurrency: the number of input-phase tasks per
	// machine above which only the wildcard admits another (§4, default 3).
	M int
	// Policy is the queue policy of the single queue: "fair" or "fifo".
	Policy string
	// SmallFIFO, when positive, makes a multi-queue: jobs whose coflow is
	// smaller than this many bytes go to a FIFO queue, the others to a Fair
	// queue, and the two queues share slots fairly (§7.3, Fig. 9c).
	SmallFIFO float64
	// LocalityDelay is delay scheduling's skip threshold for stages that
	// read files, as a fraction of the machines (§5.1 "existing locality
	// policies"): a job skipped ceil(LocalityDelay x machines) times takes
	// a non-local slot. The default 0.231 gives the same D as queue's delay
	// (baselines.md §3.3: 95% locality for 20-task jobs, 3 replicas).
	LocalityDelay float64
	// RateWindow is the time constant in seconds of the EMA of each
	// machine's receive rate (§4).
	RateWindow float64
	// RackLocal: "auto" treats rack-local sources as local when the network
	// is oversubscribed (§4), "on" and "off" force it.
	RackLocal string
	// Ablations (§7.2): GP global smallest-coflow-first priority in size
	// bins instead of Peña's per-machine ranks, RS random task selection,
	// H the not-hinder test off, W the wildcard off.
	GP, RS, H, W bool
	// Check asserts the priority bookkeeping after every placement and
	// input-phase end (also on whenever the run is in check mode).
	Check bool
}

// DefaultConfig is PushBox as in the paper: m = 3, one Fair queue.
func DefaultConfig() Config {
	return Config{M: 3, Policy: Fair, LocalityDelay: 0.231, RateWindow: 5, RackLocal: "auto"}
}

// Queue policies.
const (
	Fair = "fair"
	FIFO = "fifo"
)

// params documents the scheduler's parameters for `netsched schedulers`.
var params = []sched.ParamInfo{
	{Name: "m", Default: "3", Help: "controlled concurrency: input-phase tasks per machine before only the wildcard admits more (§4)"},
	{Name: "policy", Default: "fair", Help: "queue policy: fair or fifo (§2.1)"},
	{Name: "small_fifo", Default: "0", Help: "multi-queue: jobs whose coflow is below this size (e.g. 100MB) form a FIFO queue beside a Fair queue (§7.3; policy is then ignored); 0 = one queue"},
	{Name: "locality_delay", Default: "0.231", Help: "delay scheduling for file-reading stages: skipped opportunities before a non-local slot, as a fraction of the machines (default: the same D as queue's delay)"},
	{Name: "rate_window", Default: "5s", Help: "time constant of the EMA of each machine's receive rate (§4)"},
	{Name: "rack_local", Default: "auto", Help: "count rack-local sources as local, intra-rack flows in the lowest class: auto (when oversubscribed), on, off"},
	{Name: "ablate", Default: "", Help: "switch components off (§7.2): any of GP, RS, H, W joined by + (e.g. H+W)"},
	{Name: "check", Default: "false", Help: "assert the per-machine priority order after every placement and input-phase end"},
}

// parseConfig reads the registry parameters; errors name the parameter.
func parseConfig(p *sched.Params) (Config, error) {
	c := DefaultConfig()
	c.M = p.Int("m", c.M)
	if c.M < 1 {
		p.Fail("m", c.M, "an integer >= 1")
	}
	c.Policy = p.String("policy", c.Policy, Fair, FIFO)
	if raw, ok := p.Raw("small_fifo"); ok {
		b, err := bytesValue(raw)
		if err != nil {
			p.Fail("small_fifo", raw, "a size such as 100MB, or 0")
		}
		c.SmallFIFO = b
	}
	c.LocalityDelay = p.Float("locality_delay", c.LocalityDelay)
	if c.LocalityDelay < 0 {
		p.Fail("locality_delay", c.LocalityDelay, "a number >= 0")
	}
	c.RateWindow = p.Duration("rate_window", c.RateWindow)
	if c.RateWindow <= 0 {
		p.Fail("rate_window", c.RateWindow, "a duration > 0")
	}
	c.RackLocal = p.String("rack_local", c.RackLocal, "auto", "on", "off")
	if abl := p.String("ablate", ""); abl != "" {
		if err := c.ablate(abl); err != nil {
			p.Fail("ablate", abl, err.Error())
		}
	}
	c.Check = p.Bool("check", false)
	return c, nil
}

// ablate switches off the components named in s ("GP", "H+W", ...).
func (c *Config) ablate(s string) error {
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '+' || r == ',' || r == ' ' }) {
		switch strings.ToUpper(part) {
		case "GP":
			c.GP = true
		case "RS":
			c.RS = true
		case "H":
			c.H = true
		case "W":
			c.W = true
		default:
			return fmt.Errorf("components GP, RS, H or W joined by + (unknown %q)", part)
		}
	}
	return nil
}

// bytesValue reads a size given as a number of bytes or a string "100MB".
// Kept apart from nas's bytesParam, which rejects +Inf and words its errors
// per case: sharing one would change what small_fifo accepts or reports.
func bytesValue(raw any) (float64, error) {
	switch x := raw.(type) {
	case int:
		return nonNegative(float64(x))
	case int64:
		return nonNegative(float64(x))
	case uint64:
		return float64(x), nil
	case float64:
		return nonNegative(x)
	case string:
		b, err := units.ParseBytes(x)
		if err != nil {
			return 0, err
		}
		return nonNegative(b)
	}
	return 0, fmt.Errorf("not a size")
}

func nonNegative(x float64) (float64, error) {
	if x < 0 || x != x {
		return 0, fmt.Errorf("negative size")
	}
	return x, nil
}
