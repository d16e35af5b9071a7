package gen

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/jobmodel"
	"github.com/netsched/netsched/workload"
)

// Terasort generates Hadoop TeraSort jobs, the testbed workload of the CSS
// paper (§V-A: "3 x 25 GB Terasort jobs" on 20 hosts, slow-start 0.7).
// TeraSort's map is the identity with a total-order partitioner and its
// reduce merges and writes: every byte read is shuffled once and written
// once, so input = shuffle = output.
//
//   - maps: one per DFS block, ceil(input / block), each reading its split
//     and writing it all as map output;
//   - reducers: `reducers`, by default Hadoop's rule of thumb of 0.95 x the
//     cluster's reduce slots (here: its slots, rounded, at least 1), each
//     fetching its partition of every map's output and writing as much;
//   - times: map_overhead + split / map_rate per map, reduce_overhead +
//     partition / reduce_rate per reducer;
//   - spread: lognormal sigma of the per-task variation (same median):
//     maps' compute times, and reducers' partition shares (TeraSort samples
//     its partition points, so partitions are nearly equal but not
//     exactly); 0 makes every map and every reducer alike;
//   - arrivals: job i at i x interarrival (default 0: submitted together).
//
// The reducers' slow-start is the scenario's engine.slowstart (0.7 in the
// paper's testbed). Every default is documented in docs/workloads.md.
type Terasort struct {
	Jobs           int
	Input          float64 // bytes per job
	Block          float64 // bytes per map
	Reducers       int
	MapRate        float64 // bytes/s
	ReduceRate     float64 // bytes/s
	MapOverhead    float64 // s
	ReduceOverhead float64 // s
	Spread         float64 // lognormal sigma
	Interarrival   float64 // s
	SlowStart      float64
}

// Terasort defaults (see docs/workloads.md for where each comes from).
const (
	TerasortJobs           = 3
	TerasortInput          = 25e9
	TerasortMapRate        = 4e6
	TerasortReduceRate     = 4e6
	TerasortMapOverhead    = 2.0
	TerasortReduceOverhead = 2.0
	// TerasortReduceShare is Hadoop's advice for the number of reducers:
	// 0.95 x the cluster's reduce slots, one wave that leaves room for a
	// failed task.
	TerasortReduceShare = 0.95
)

// ParseTerasort reads the "terasort" generator's options.
func ParseTerasort(options map[string]any, sc *scenario.Scenario) (*Terasort, error) {
	o := jobmodel.NewOptions(options)
	block := float64(scenario.DefaultBlockSize)
	slowstart := 0.05
	reducers := 1
	if sc != nil {
		if sc.BlockSize > 0 {
			block = sc.BlockSize
		}
		slowstart = sc.DefaultSlowStart
		if slots := jobmodel.TotalSlots(sc); slots > 0 {
			reducers = max(1, int(math.Round(TerasortReduceShare*float64(slots))))
		}
	}
	g := &Terasort{
		Jobs:           o.Int("jobs", TerasortJobs),
		Input:          o.Bytes("input", TerasortInput),
		Block:          o.Bytes("block", block),
		Reducers:       o.Int("reducers", reducers),
		MapRate:        o.Rate("map_rate", TerasortMapRate),
		ReduceRate:     o.Rate("reduce_rate", TerasortReduceRate),
		MapOverhead:    o.Duration("map_overhead", TerasortMapOverhead),
		ReduceOverhead: o.Duration("reduce_overhead", TerasortReduceOverhead),
		Spread:         o.Number("spread", 0),
		Interarrival:   o.Duration("interarrival", 0),
		SlowStart:      slowstart,
	}
	switch {
	case g.Jobs < 1:
		o.Fail("jobs", "must be at least 1")
	case !(g.Input > 0):
		o.Fail("input", "must be greater than 0")
	case !(g.Block > 0):
		o.Fail("block", "must be greater than 0")
	case g.Reducers < 1:
		o.Fail("reducers", "must be at least 1")
	case g.Spread > workload.MaxSigma:
		o.Fail("spread", "%g is beyond the lognormal limit %d", g.Spread, workload.MaxSigma)
	case g.Input/g.Block > workload.MaxTasksPerStage:
		o.Fail("block", "%g maps per job, more than %d", math.Ceil(g.Input/g.Block), workload.MaxTasksPerStage)
	}
	return g, o.Err()
}

// Job builds the i-th TeraSort job.
func (g *Terasort) Job(i int) workload.Job {
	maps := int(math.Ceil(g.Input / g.Block))
	split := g.Input / float64(maps)
	spread := func(median float64) workload.Dist {
		if g.Spread == 0 {
			return workload.ConstDist(median)
		}
		return workload.Dist{Kind: workload.LogNormal, A: median, B: g.Spread}
	}
	share := workload.Dist{} // equal partitions
	if g.Spread > 0 {
		share = workload.Dist{Kind: workload.LogNormal, A: 1, B: g.Spread}
	}
	return workload.Job{ID: fmt.Sprintf("terasort%d", i), Arrival: float64(i) * g.Interarrival, Stages: []workload.Stage{
		{ID: "map", Generate: &workload.TaskGen{
			Count:   maps,
			Input:   workload.ConstDist(split),
			Compute: spread(g.MapOverhead + split/g.MapRate),
			Output:  workload.ConstDist(split),
		}},
		{ID: "reduce",
			After: []workload.Dep{{Stage: "map", Kind: workload.FinishesBefore, SlowStart: g.SlowStart, Pattern: workload.ScatterGather}},
			Generate: &workload.TaskGen{
				Count:       g.Reducers,
				Share:       share,
				Compute:     workload.ConstDist(g.ReduceOverhead),
				PerByte:     1 / g.ReduceRate,
				OutputRatio: 1,
			}},
	}}
}

// Source streams the jobs.
func (g *Terasort) Source() workload.Source { return &terasortSource{g: g} }

type terasortSource struct {
	g *Terasort
	i int
}

func (s *terasortSource) Next() (*workload.Job, bool, error) {
	if s.i >= s.g.Jobs {
		return nil, false, nil
	}
	j := s.g.Job(s.i)
	s.i++
	return &j, true, nil
}

// OpenTerasort is the scenario.Opener of the "terasort" generator.
func OpenTerasort(_ string, options map[string]any, sc *scenario.Scenario) (workload.Source, error) {
	g, err := ParseTerasort(options, sc)
	if err != nil {
		return nil, fmt.Errorf("terasort options: %w", err)
	}
	return g.Source(), nil
}
