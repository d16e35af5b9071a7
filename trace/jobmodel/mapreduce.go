// Package jobmodel turns trace records into netsched MapReduce jobs: the shared
// sizing rules (map and reduce counts, compute times) used by the SWIM
// importer and the generators, the coflow-benchmark to jobs conversion
// (PushBox §7.1), job labelling (users, queues, recurring) and the strict
// reader of importer options. Every default is documented in
// docs/workloads.md with its source.
package jobmodel

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/workload"
)

// Defaults of the MapReduce sizing rules (see docs/workloads.md).
const (
	// DefaultBytesPerReducer is SWIM's replay setting: its example replay
	// scripts pass 67108864 bytes of shuffle+output per reduce task.
	DefaultBytesPerReducer = 64 << 20
	// DefaultRate is the per-task processing rate (our choice: the sequential
	// throughput of one 2010-era disk, so a 128 MiB map computes in ~1.3 s).
	DefaultRate = 100e6
	// DefaultOverhead is the fixed per-task time (our choice: container/JVM
	// start, about a second in Hadoop).
	DefaultOverhead = 1.0
)

// Params sizes MapReduce jobs from their input, shuffle and output bytes.
type Params struct {
	Block           float64 // bytes per map task (the DFS block)
	BytesPerReducer float64 // shuffle+output bytes per reduce task (SWIM rule)
	Reducers        int     // fixed reduce count when > 0 (overrides BytesPerReducer)
	MaxReducers     int     // cap on the reduce count; 0 = none
	MapRate         float64 // bytes/s a map task processes
	ReduceRate      float64 // bytes/s a reduce task processes
	MapOverhead     float64 // seconds added to every map task
	ReduceOverhead  float64 // seconds added to every reduce task
	SlowStart       float64 // reducer slow-start on the map stage
	ReduceSkew      workload.Dist
}

// ParseParams reads the sizing options (block, bytes_per_reducer,
// reducers, max_reducers, reduce_skew and the compute options of
// ParseCompute), taking the block size, slow-start and cluster slots from
// the scenario (sc may be nil: defaults, no reducer cap).
func ParseParams(o *Options, sc *scenario.Scenario) Params {
	p := ParseCompute(o, sc)
	if b := o.Bytes("bytes_per_reducer", p.BytesPerReducer); b > 0 {
		p.BytesPerReducer = b
	} else {
		o.Fail("bytes_per_reducer", "must be greater than 0")
	}
	p.Reducers = o.Int("reducers", 0)
	p.MaxReducers = o.Int("max_reducers", p.MaxReducers)
	p.ReduceSkew = o.Dist("reduce_skew", Unitless, workload.Dist{})
	return p
}

// ParseCompute reads only block, map_rate, reduce_rate, map_overhead and
// reduce_overhead: what an importer needs when the trace itself fixes the
// reducers (coflow-benchmark).
func ParseCompute(o *Options, sc *scenario.Scenario) Params {
	p := Params{
		Block:           scenario.DefaultBlockSize,
		BytesPerReducer: DefaultBytesPerReducer,
		MapRate:         DefaultRate,
		ReduceRate:      DefaultRate,
		MapOverhead:     DefaultOverhead,
		ReduceOverhead:  DefaultOverhead,
		SlowStart:       0.05,
	}
	if sc != nil {
		if sc.BlockSize > 0 {
			p.Block = sc.BlockSize
		}
		p.SlowStart = sc.DefaultSlowStart
		p.MaxReducers = TotalSlots(sc)
	}
	if b := o.Bytes("block", p.Block); b > 0 {
		p.Block = b
	} else {
		o.Fail("block", "must be greater than 0")
	}
	p.MapRate = o.Rate("map_rate", p.MapRate)
	p.ReduceRate = o.Rate("reduce_rate", p.ReduceRate)
	p.MapOverhead = o.Duration("map_overhead", p.MapOverhead)
	p.ReduceOverhead = o.Duration("reduce_overhead", p.ReduceOverhead)
	return p
}

// TotalSlots is the number of task slots in the scenario's cluster.
func TotalSlots(sc *scenario.Scenario) int {
	n := 0
	for _, m := range sc.Machines {
		n += m.Slots
	}
	return n
}

// MapCount is ceil(input / block), at least one (SWIM's rule; a job with no
// input still runs one map).
func (p *Params) MapCount(input float64) int {
	n := math.Ceil(input / p.Block)
	if n < 1 || math.IsNaN(n) {
		return 1
	}
	return int(min(n, math.MaxInt32))
}

// ReduceCount is the fixed count, else round((shuffle+output) /
// BytesPerReducer) at least one (SWIM's GenerateReplayScript rule), capped
// at MaxReducers when set.
func (p *Params) ReduceCount(shuffle, output float64) int {
	n := p.Reducers
	if n <= 0 {
		n = int(min(math.Max(1, math.Round((shuffle+output)/p.BytesPerReducer)), math.MaxInt32))
	}
	if p.MaxReducers > 0 && n > p.MaxReducers {
		n = p.MaxReducers
	}
	return n
}

// MapReduce builds a two-stage job; shuffle == 0 makes a map-only job
// whose maps write the output (as SWIM does for jobs without reduces).
// Tasks are described by count and constant sizes (Stage.Generate), so a
// job costs O(1) however many tasks it has until the engine expands it.
func (p *Params) MapReduce(id string, arrival, input, shuffle, output float64) workload.Job {
	maps := p.MapCount(input)
	mapOut := shuffle
	if shuffle == 0 {
		mapOut = output
	}
	j := workload.Job{ID: id, Arrival: arrival, Stages: []workload.Stage{{
		ID: "map",
		Generate: &workload.TaskGen{
			Count:   maps,
			Input:   workload.ConstDist(input / float64(maps)),
			Compute: workload.ConstDist(p.MapOverhead),
			PerByte: 1 / p.MapRate,
			Output:  workload.ConstDist(mapOut / float64(maps)),
		},
	}}}
	if shuffle == 0 {
		return j
	}
	reds := p.ReduceCount(shuffle, output)
	j.Stages = append(j.Stages, workload.Stage{
		ID:    "reduce",
		After: []workload.Dep{{Stage: "map", Kind: workload.FinishesBefore, SlowStart: p.SlowStart, Pattern: workload.ScatterGather}},
		Generate: &workload.TaskGen{
			Count:   reds,
			Share:   p.ReduceSkew,
			Compute: workload.ConstDist(p.ReduceOverhead),
			PerByte: 1 / p.ReduceRate,
			Output:  workload.ConstDist(output / float64(reds)),
		},
	})
	return j
}

// Check validates sizes before building, so a bad trace record or a
// degenerate generated value is an error rather than a NaN in a job.
func Check(input, shuffle, output float64) error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"input", input}, {"shuffle", shuffle}, {"output", output}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%s bytes %g must be finite and >= 0", f.name, f.v)
		}
	}
	return nil
}
