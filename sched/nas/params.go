package nas

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/sched"
)

// Config holds NAS's parameters; DefaultConfig gives the paper's values
// (§IV-A: thresholds 1 MB / 100 MB / 10 MB, congestion 80%, D = 135).
type Config struct {
	// Skip counts before a user may launch a non-local / non-qualified map
	// (D^m) and a non-light reducer during congestion (D^r).
	MapSkips    int `param:"map_skips" min:"0" help:"D^m: opportunities a user is skipped before a non-local or over-budget map"`
	ReduceSkips int `param:"reduce_skips" min:"0" help:"D^r: opportunities a user is skipped during congestion before a non-light reducer"`
	// CongestionThreshold is the cross-rack utilisation (0..1) at or above
	// which the network is congested (CogestionThreshold in the paper).
	CongestionThreshold float64 `param:"congestion_threshold" min:"0" max:"1" help:"cross-rack utilisation (0-1) from which CR-RTS replaces CA-RTS"`
	// LightShuffle and HeavyShuffle bound shuffle-light (< light) and
	// shuffle-heavy (> heavy) jobs, in bytes; SmallInput bounds small-input
	// jobs (< small).
	LightShuffle float64 `param:"light_shuffle" unit:"B" min:"0" help:"jobs with predicted shuffle below this are shuffle-light"`
	HeavyShuffle float64 `param:"heavy_shuffle" unit:"B" min:"0" help:"jobs with predicted shuffle above this are shuffle-heavy"`
	SmallInput   float64 `param:"small_input" unit:"B" min:"0" help:"jobs with input below this are small-input (MTS categories)"`
	// ThresholdInterval is how often TrafficThreshold is recomputed (s).
	ThresholdInterval float64 `param:"threshold_interval" unit:"s" help:"how often TrafficThreshold (eq. 3) is recomputed"`
	// Mechanisms, for the ablations of Fig. 3.
	TrafficThreshold bool `param:"traffic_threshold" help:"MTS caps predicted shuffle per node (false: the w/o TT ablation)"`
	CARTS            bool `param:"ca_rts" help:"CA-RTS places reducers (false: MTS-only ablation, reducers in fairness order)"`
	CRRTS            bool `param:"cr_rts" help:"CR-RTS during congestion (false: MTS + CA-RTS ablation)"`
	HoldMaps         bool `param:"hold_maps" help:"CR-RTS tells MTS to hold shuffle-heavy and -medium maps until congestion clears"`
	// ReduceRampup caps a job's reducers at this share of its containers
	// while it has maps waiting (Hadoop's MR application master), and all
	// such early reducers at this share of the cluster.
	ReduceRampup float64 `param:"reduce_rampup" help:"while a job has maps waiting, its reducers hold at most this share of its containers, and all such reducers at most this share of the cluster (MR AM rampup limit, and a stand-in for reduce preemption)"`
	// KnownShuffle uses each map's estimated output from the start instead
	// of the ratio learned from completed maps.
	KnownShuffle ShuffleSize `param:"shuffle_size" help:"learned (ratio from completed maps, §III-A) or known (each map's estimate from the start)"`
}

// ShuffleSize is the shuffle_size parameter: true when each map's
// estimated output is known from the start ("known"), false when the
// ratio is learned from completed maps ("learned").
type ShuffleSize bool

func (k *ShuffleSize) SetParam(raw any) error {
	switch raw {
	case "learned":
		*k = false
	case "known":
		*k = true
	default:
		return fmt.Errorf("got %v, expected one of learned, known", raw)
	}
	return nil
}

func (k ShuffleSize) String() string {
	if k {
		return "known"
	}
	return "learned"
}

// DefaultConfig is NAS as evaluated in §IV.
func DefaultConfig() Config {
	return Config{
		MapSkips: 135, ReduceSkips: 135,
		CongestionThreshold: 0.8,
		LightShuffle:        1e6, HeavyShuffle: 100e6, SmallInput: 10e6,
		ThresholdInterval: 1,
		ReduceRampup:      0.5,
		TrafficThreshold:  true, CARTS: true, CRRTS: true, HoldMaps: true,
	}
}

// Validate checks the rules that span fields or exclude a bound.
func (c *Config) Validate() error {
	switch {
	case math.IsInf(c.LightShuffle, 0) || math.IsInf(c.HeavyShuffle, 0) || math.IsInf(c.SmallInput, 0):
		return sched.BadParam("light_shuffle", "infinite", "finite sizes for light_shuffle, heavy_shuffle and small_input")
	case c.HeavyShuffle < c.LightShuffle:
		return sched.BadParam("heavy_shuffle", units.FormatBytes(c.HeavyShuffle), "a size at least light_shuffle ("+units.FormatBytes(c.LightShuffle)+")")
	case !(c.ReduceRampup > 0) || c.ReduceRampup > 1:
		return sched.BadParam("reduce_rampup", c.ReduceRampup, "a fraction in (0, 1]")
	case !(c.ThresholdInterval > 0) || math.IsInf(c.ThresholdInterval, 0):
		return sched.BadParam("threshold_interval", c.ThresholdInterval, "a duration > 0")
	}
	return nil
}
