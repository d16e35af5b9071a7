package corral

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// Config holds Corral's parameters. The parts that shared/design/
// baselines.md §7 reconstructs (the LRF formulas, the provisioning step,
// the stopping rule, spilling) are marked [reconstruction] in their help.
type Config struct {
	// EPS is the rack uplink the latency model divides cross-rack shuffle
	// by; the View does not expose the network's configuration.
	EPS      float64 `param:"eps_bandwidth" unit:"bps" min:"0" help:"a rack's uplink to the core (the scenario's network.rack_uplink), for the LRF's shuffle term"`
	Mode     string  `param:"mode" choices:"auto|batch|online" help:"batch: widest job first, objective makespan; online: by predicted arrival, objective mean completion; auto: batch when every recurring job is predicted at the same time"`
	MaxSteps int     `param:"max_steps" min:"0" help:"[reconstruction] most provisioning steps (one more rack to one job each); the search also stops after as many steps without improvement as there are jobs"`
	Spill    bool    `param:"spill" help:"[reconstruction] a planned job may run on racks outside its plan when they would otherwise idle (corral.spill; off: the plan is a hard constraint)"`
	Rampup   float64 `param:"reduce_rampup" help:"while a planned job has maps waiting, its reducers hold at most this share of its containers, and all such reducers this share of the cluster (MR AM ramp-up)"`
}

// DefaultConfig is Corral on the JobPacker study's cluster (§5.1.2: 30
// Gbps rack uplinks).
func DefaultConfig() Config {
	return Config{EPS: 30e9 / 8, Mode: "auto", MaxSteps: 2000, Rampup: 0.5}
}

// Validate checks what the tags cannot.
func (c *Config) Validate() error {
	switch {
	case !(c.EPS > 0) || math.IsInf(c.EPS, 0):
		return sched.BadParam("eps_bandwidth", c.EPS, "a rate > 0")
	case !(c.Rampup > 0) || c.Rampup > 1:
		return sched.BadParam("reduce_rampup", c.Rampup, "a fraction in (0, 1]")
	}
	return nil
}

func init() {
	sched.Register(sched.Define("corral",
		"Corral (SIGCOMM'15) as baselines.md §7 reconstructs it: offline plan of recurring jobs onto rack sets (LRF, widest first, provisioning), input on the planned racks, ad-hoc jobs by Fair",
		DefaultConfig(), func(c Config) (sched.Scheduler, error) { return New(c), nil }))
}
