package nas

import (
	"math"

	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/sched"
)

// Config holds NAS's parameters; DefaultConfig gives the paper's values
// (§IV-A: thresholds 1 MB / 100 MB / 10 MB, congestion 80%, D = 135).
type Config struct {
	// Skip counts before a user may launch a non-local / non-qualified map
	// (D^m) and a non-light reducer during congestion (D^r).
	MapSkips, ReduceSkips int
	// CongestionThreshold is the cross-rack utilisation (0..1) at or above
	// which the network is congested (CogestionThreshold in the paper).
	CongestionThreshold float64
	// LightShuffle and HeavyShuffle bound shuffle-light (< light) and
	// shuffle-heavy (> heavy) jobs, in bytes; SmallInput bounds small-input
	// jobs (< small).
	LightShuffle, HeavyShuffle, SmallInput float64
	// ThresholdInterval is how often TrafficThreshold is recomputed (s).
	ThresholdInterval float64
	// Mechanisms, for the ablations of Fig. 3.
	TrafficThreshold bool // MTS caps shuffle per node (false: w/o TT)
	CARTS            bool // reducers placed by CA-RTS (false: fairness order)
	CRRTS            bool // CR-RTS during congestion (false: CA-RTS always)
	HoldMaps         bool // CR-RTS holds heavy and medium maps
	// ReduceRampup caps a job's reducers at this share of its containers
	// while it has maps waiting (Hadoop's MR application master), and all
	// such early reducers at this share of the cluster.
	ReduceRampup float64
	// KnownShuffle uses each map's estimated output from the start instead
	// of the ratio learned from completed maps.
	KnownShuffle bool
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

var paramInfo = []sched.ParamInfo{
	{Name: "map_skips", Default: "135", Help: "D^m: opportunities a user is skipped before a non-local or over-budget map"},
	{Name: "reduce_skips", Default: "135", Help: "D^r: opportunities a user is skipped during congestion before a non-light reducer"},
	{Name: "congestion_threshold", Default: "0.8", Help: "cross-rack utilisation (0-1) from which CR-RTS replaces CA-RTS"},
	{Name: "light_shuffle", Default: "1MB", Help: "jobs with predicted shuffle below this are shuffle-light"},
	{Name: "heavy_shuffle", Default: "100MB", Help: "jobs with predicted shuffle above this are shuffle-heavy"},
	{Name: "small_input", Default: "10MB", Help: "jobs with input below this are small-input (MTS categories)"},
	{Name: "threshold_interval", Default: "1s", Help: "how often TrafficThreshold (eq. 3) is recomputed"},
	{Name: "traffic_threshold", Default: "true", Help: "MTS caps predicted shuffle per node (false: the w/o TT ablation)"},
	{Name: "ca_rts", Default: "true", Help: "CA-RTS places reducers (false: MTS-only ablation, reducers in fairness order)"},
	{Name: "cr_rts", Default: "true", Help: "CR-RTS during congestion (false: MTS + CA-RTS ablation)"},
	{Name: "hold_maps", Default: "true", Help: "CR-RTS tells MTS to hold shuffle-heavy and -medium maps until congestion clears"},
	{Name: "reduce_rampup", Default: "0.5", Help: "while a job has maps waiting, its reducers hold at most this share of its containers, and all such reducers at most this share of the cluster (MR AM rampup limit, and a stand-in for reduce preemption)"},
	{Name: "shuffle_size", Default: "learned", Help: "learned (ratio from completed maps, §III-A) or known (each map's estimate from the start)"},
}

// configFrom reads the registered parameters.
func configFrom(p *sched.Params) Config {
	c := DefaultConfig()
	c.MapSkips = p.Int("map_skips", c.MapSkips)
	c.ReduceSkips = p.Int("reduce_skips", c.ReduceSkips)
	c.CongestionThreshold = p.Float("congestion_threshold", c.CongestionThreshold)
	c.LightShuffle = bytesParam(p, "light_shuffle", c.LightShuffle)
	c.HeavyShuffle = bytesParam(p, "heavy_shuffle", c.HeavyShuffle)
	c.SmallInput = bytesParam(p, "small_input", c.SmallInput)
	c.ThresholdInterval = p.Duration("threshold_interval", c.ThresholdInterval)
	c.TrafficThreshold = p.Bool("traffic_threshold", c.TrafficThreshold)
	c.CARTS = p.Bool("ca_rts", c.CARTS)
	c.CRRTS = p.Bool("cr_rts", c.CRRTS)
	c.HoldMaps = p.Bool("hold_maps", c.HoldMaps)
	c.ReduceRampup = p.Float("reduce_rampup", c.ReduceRampup)
	c.KnownShuffle = p.String("shuffle_size", "learned", "learned", "known") == "known"
	switch {
	case c.MapSkips < 0:
		p.Fail("map_skips", c.MapSkips, "a count >= 0")
	case c.ReduceSkips < 0:
		p.Fail("reduce_skips", c.ReduceSkips, "a count >= 0")
	case c.CongestionThreshold < 0 || c.CongestionThreshold > 1 || math.IsNaN(c.CongestionThreshold):
		p.Fail("congestion_threshold", c.CongestionThreshold, "a fraction in [0, 1]")
	case c.HeavyShuffle < c.LightShuffle:
		p.Fail("heavy_shuffle", units.FormatBytes(c.HeavyShuffle), "a size at least light_shuffle ("+units.FormatBytes(c.LightShuffle)+")")
	case !(c.ReduceRampup > 0) || c.ReduceRampup > 1:
		p.Fail("reduce_rampup", c.ReduceRampup, "a fraction in (0, 1]")
	case !(c.ThresholdInterval > 0) || math.IsInf(c.ThresholdInterval, 0):
		p.Fail("threshold_interval", c.ThresholdInterval, "a duration > 0")
	}
	return c
}

// bytesParam reads a size given as a number of bytes or a string like "1MB".
func bytesParam(p *sched.Params, name string, def float64) float64 {
	raw, ok := p.Raw(name)
	if !ok {
		return def
	}
	var b float64
	switch x := raw.(type) {
	case string:
		v, err := units.ParseBytes(x)
		if err != nil {
			p.Fail(name, x, "a size like 1MB")
			return def
		}
		b = v
	default:
		b = p.Float(name, def)
	}
	if b < 0 || math.IsNaN(b) || math.IsInf(b, 0) {
		p.Fail(name, raw, "a finite size >= 0")
		return def
	}
	return b
}
