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
	Skips int `param:"skips" help:"delay scheduling's D (-1: ceil(0.231 x machines), as delay)"`
	// DeferAbove switches shuffle deferral on (cross-rack utilisation above
	// it) and ResumeBelow off again.
	DeferAbove  float64 `param:"defer_above" min:"0" max:"1" help:"[reconstruction] cross-rack utilisation above which shuffle-heavy reducers are deferred"`
	ResumeBelow float64 `param:"resume_below" min:"0" max:"1" help:"[reconstruction] utilisation below which deferral stops"`
	// ShuffleRatio: jobs with shuffle/input above it are shuffle-heavy.
	ShuffleRatio float64 `param:"shuffle_ratio" min:"0" help:"[reconstruction] shuffle/input above which a job is shuffle-heavy"`
	// FairSlack: a job below (1 - FairSlack) of its fair share is never
	// deferred; MaxDefer (s) bounds one deferral.
	FairSlack float64 `param:"fair_slack" min:"0" max:"1" help:"[reconstruction] a job under (1 - fair_slack) x its fair share is never deferred"`
	MaxDefer  float64 `param:"max_defer" unit:"s" min:"0" help:"[reconstruction] longest deferral of one job's reducers"`
}

// DefaultConfig is the reconstruction's defaults.
func DefaultConfig() Config {
	return Config{Skips: -1, DeferAbove: 0.8, ResumeBelow: 0.5, ShuffleRatio: 0.3, FairSlack: 0.1, MaxDefer: 60}
}

// Validate checks the rules that span fields.
func (c *Config) Validate() error {
	switch {
	case c.ResumeBelow > c.DeferAbove:
		return sched.BadParam("resume_below", c.ResumeBelow, "a fraction in [0, defer_above]")
	case math.IsInf(c.ShuffleRatio, 0):
		return sched.BadParam("shuffle_ratio", c.ShuffleRatio, "a ratio >= 0")
	}
	return nil
}
