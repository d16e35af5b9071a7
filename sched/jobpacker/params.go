package jobpacker

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// Config holds JobPacker's parameters; DefaultConfig gives the paper's
// values (§5.1.2-5.3).
type Config struct {
	// The network as the planner models it. The scheduler's View does not
	// expose the network's configuration, so these repeat the scenario's
	// hybrid network: set them to the scenario's values.
	Elephant float64 `param:"elephant" unit:"B" min:"0" help:"elephant threshold of the OCS (the scenario's network.ocs.elephant): shuffle-heavy jobs, feasible pairs, aggregation"`
	OCS      float64 `param:"ocs_bandwidth" unit:"bps" min:"0" help:"a rack's OCS port speed (network.ocs.port_speed), for the shuffle latency of pairs that use the OCS"`
	EPS      float64 `param:"eps_bandwidth" unit:"bps" min:"0" help:"a rack's EPS uplink (network.rack_uplink), for the shuffle latency of other pairs"`

	SlowStart  float64 `param:"slowstart" min:"0" max:"1" help:"planned jobs' reducers start when this share of their maps is done (emulated: reducers are not placed earlier; §4.2, §5.4.3)"`
	SubBatches int     `param:"sub_batches" min:"1" help:"B: sub-batches of the batch scenario, packed Tetris-style (§4.3.2, Fig. 18)"`
	Over       float64 `param:"overprovision" min:"0" help:"over-provisioning ratio: the plan reserves (1 + ratio) x the containers a recurring job needs, leaving room for ad-hoc jobs (§4.3.2, Fig. 16)"`
	HeavyInput float64 `param:"heavy_input" unit:"B" min:"0" help:"ad-hoc jobs with more estimated input are treated as shuffle-heavy and kept apart (§4.4); 0 = no split"`
	Aggregate  bool    `param:"aggregate" help:"hold a planned shuffle-heavy job's fetches per (source rack, reduce rack) until they reach the elephant threshold or the rack's maps are done (§4.2)"`
	Mode       string  `param:"mode" choices:"auto|batch|online" help:"batch: sub-batches sorted by width (jobs submitted together); online: by predicted arrival; auto: batch when every recurring job is predicted at the same time"`
	Rampup     float64 `param:"reduce_rampup" help:"while a planned job has maps waiting, its reducers hold at most this share of its containers, and all such reducers this share of the cluster (MR AM ramp-up; a stand-in for reduce preemption)"`
}

// DefaultConfig is JobPacker as the paper evaluates it in simulation
// (§5.1.2: 1.125 GB elephants, 100 Gbps to the OCS, 30 Gbps to the EPS;
// §5.2: slow-start 0.7, B = 5; §5.3: over-provisioning 1.0; §4.4: 1 GB).
func DefaultConfig() Config {
	return Config{
		Elephant: 1.125e9, OCS: 100e9 / 8, EPS: 30e9 / 8,
		SlowStart: 0.7, SubBatches: 5, Over: 1, HeavyInput: 1e9,
		Aggregate: true, Mode: "auto", Rampup: 0.5,
	}
}

// Validate checks what the tags cannot.
func (c *Config) Validate() error {
	switch {
	case !(c.Elephant > 0) || math.IsInf(c.Elephant, 0):
		return sched.BadParam("elephant", c.Elephant, "a size > 0")
	case !(c.OCS > 0) || math.IsInf(c.OCS, 0):
		return sched.BadParam("ocs_bandwidth", c.OCS, "a rate > 0")
	case !(c.EPS > 0) || math.IsInf(c.EPS, 0):
		return sched.BadParam("eps_bandwidth", c.EPS, "a rate > 0")
	case math.IsInf(c.Over, 0) || math.IsNaN(c.Over):
		return sched.BadParam("overprovision", c.Over, "a finite ratio >= 0")
	case !(c.Rampup > 0) || c.Rampup > 1:
		return sched.BadParam("reduce_rampup", c.Rampup, "a fraction in (0, 1]")
	}
	return nil
}

func init() {
	sched.Register(sched.Define("jobpacker",
		"JobPacker (ICPP'19): offline rack plan of recurring jobs (profiler eq. 1, Tetris sub-batches), input placed on planned racks, shuffle aggregated per rack pair for the OCS, ad-hoc jobs by Fair",
		DefaultConfig(), func(c Config) (sched.Scheduler, error) { return New(c), nil }))
}
