package neat

import "github.com/netsched/netsched/sched"

// Config holds neat's parameters.
type Config struct {
	// Predictor picks the single-link model; auto follows the scenario's
	// network policy (ForPolicy).
	Predictor string `param:"predictor" choices:"auto|fair|fcfs|srpt|las" help:"[reconstruction] completion-time model of a link: auto follows the scenario's network policy (none/fair: fair, fifo: fcfs, scf and varys: srpt, aalo: las)"`
	// Compute adds the task's compute time on the candidate machine to its
	// predicted cost (NEAT+ accounts for compute resources).
	Compute bool `param:"compute" help:"[reconstruction] add the task's compute time on the machine (View.EstimateOn) to its cost, as NEAT+"`
	// Order is the job order placement serves: NEAT's contribution is
	// where a task goes, not which job goes first, so fair (Hadoop Fair's
	// fewest-running-tasks-first) lets it be compared with fair and delay
	// on the same order; fifo serves jobs by arrival.
	Order string `param:"order" choices:"fair|fifo" help:"job order: fair (fewest running tasks first, as Hadoop Fair without weights) or fifo (by arrival)"`
}

// DefaultConfig is neat's defaults.
func DefaultConfig() Config { return Config{Predictor: "auto", Compute: true, Order: "fair"} }

func init() {
	sched.Register(sched.Define("neat",
		"NEAT (CoNEXT'16) / NEAT+ (ToN'20) task placement; a documented reconstruction (baselines.md §6, formulas not verified): "+
			"each task goes, jobs in fair order (parameter order), to the free machine minimising its predicted completion plus the delay it adds to flows in flight, "+
			"predicted under the network policy in force",
		DefaultConfig(), func(c Config) (sched.Scheduler, error) { return New(c), nil }))
}
