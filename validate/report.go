package validate

import "github.com/netsched/netsched/metrics"

// FlowError is one flow, simulated and measured. Times are seconds; FCT is
// finish - start.
type FlowError struct {
	Flow             metrics.FlowRecord
	SimFCT, Measured float64
	RelErr           float64 // (Measured - SimFCT) / SimFCT
}

// JobError is one job's network completion: from its first flow's start
// to its last flow's end.
type JobError struct {
	Job              string
	Flows            int
	SimSpan, Measure float64
	RelErr           float64
}

// Report is a validation run.
type Report struct {
	Scenario string
	Flows    []FlowError
	Jobs     []JobError
	// Distribution of |RelErr| over flows and over jobs.
	FlowErr, JobErr metrics.Stats
	// Goodput is the median ratio of simulated to measured FCT over flows
	// of at least a second: the share of the line rate TCP delivers as
	// payload (the network.goodput knob's fitted value).
	Goodput float64
}

// Options bound a validation.
type Options struct {
	MaxFlows int // refuse scenarios with more flows (default 500)
}
