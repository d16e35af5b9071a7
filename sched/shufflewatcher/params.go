package shufflewatcher

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// Config holds sw-delay's parameters. None of the thresholds is from the
// ShuffleWatcher paper (baselines.md §5 marks them [D]).
type Config struct {
	// Skips is delay scheduling's D; negative picks §3.3's bound for the
	// cluster (the `delay` scheduler's default).
	Skips int
	// DeferAbove switches shuffle deferral on (cross-rack utilisation above
	// it) and ResumeBelow off again.
	DeferAbove, ResumeBelow float64
	// ShuffleRatio: jobs with shuffle/input above it are shuffle-heavy.
	ShuffleRatio float64
	// FairSlack: a job below (1 - FairSlack) of its fair share is never
	// deferred; MaxDefer (s) bounds one deferral.
	FairSlack, MaxDefer float64
}

// DefaultConfig is the reconstruction's defaults.
func DefaultConfig() Config {
	return Config{Skips: -1, DeferAbove: 0.8, ResumeBelow: 0.5, ShuffleRatio: 0.3, FairSlack: 0.1, MaxDefer: 60}
}

var paramInfo = []sched.ParamInfo{
	{Name: "skips", Default: "-1", Help: "delay scheduling's D (-1: ceil(0.231 x machines), as delay)"},
	{Name: "defer_above", Default: "0.8", Help: "[reconstruction] cross-rack utilisation above which shuffle-heavy reducers are deferred"},
	{Name: "resume_below", Default: "0.5", Help: "[reconstruction] utilisation below which deferral stops"},
	{Name: "shuffle_ratio", Default: "0.3", Help: "[reconstruction] shuffle/input above which a job is shuffle-heavy"},
	{Name: "fair_slack", Default: "0.1", Help: "[reconstruction] a job under (1 - fair_slack) x its fair share is never deferred"},
	{Name: "max_defer", Default: "60s", Help: "[reconstruction] longest deferral of one job's reducers"},
}

func configFrom(p *sched.Params) Config {
	c := DefaultConfig()
	c.Skips = p.Int("skips", c.Skips)
	c.DeferAbove = p.Float("defer_above", c.DeferAbove)
	c.ResumeBelow = p.Float("resume_below", c.ResumeBelow)
	c.ShuffleRatio = p.Float("shuffle_ratio", c.ShuffleRatio)
	c.FairSlack = p.Float("fair_slack", c.FairSlack)
	c.MaxDefer = p.Duration("max_defer", c.MaxDefer)
	frac := func(x float64) bool { return x >= 0 && x <= 1 }
	switch {
	case !frac(c.DeferAbove):
		p.Fail("defer_above", c.DeferAbove, "a fraction in [0, 1]")
	case !frac(c.ResumeBelow) || c.ResumeBelow > c.DeferAbove:
		p.Fail("resume_below", c.ResumeBelow, "a fraction in [0, defer_above]")
	case !(c.ShuffleRatio >= 0) || math.IsInf(c.ShuffleRatio, 0):
		p.Fail("shuffle_ratio", c.ShuffleRatio, "a ratio >= 0")
	case !frac(c.FairSlack):
		p.Fail("fair_slack", c.FairSlack, "a fraction in [0, 1]")
	case !(c.MaxDefer >= 0):
		p.Fail("max_defer", c.MaxDefer, "a duration >= 0")
	}
	return c
}
