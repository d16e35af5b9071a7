package gen

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/jobmodel"
	"github.com/netsched/netsched/workload"
)

// Multistage generates Tez-like jobs: a chain of processing stages fed by
// a table scan, where each later stage may also join a second scanned
// table. Edges are scatter-gather (a shuffle), broadcast (a small table
// sent whole to every task, Hive's map join) or one-to-one (a pipelined
// step with the parent's parallelism).
type Multistage struct {
	Base
	MinStages, MaxStages int // length of the processing chain (scan included)
	Input                jobmodel.Sampler
	SideInput            jobmodel.Sampler
	JoinProb             float64
	OneToOneProb         float64
	BroadcastBelow       float64 // a side table whose output is smaller is broadcast
	BytesPerTask         float64 // input bytes per task of a shuffled stage
	OutputRatio          workload.Dist
	SlowStart            float64 // on scatter-gather edges
	Params               jobmodel.Params
	Labels               jobmodel.Labels
}

const multistageStream = 0x4d535400

// ParseMultistage reads the "multistage" generator's options.
func ParseMultistage(options map[string]any, sc *scenario.Scenario) (*Multistage, error) {
	o := jobmodel.NewOptions(options)
	m := &Multistage{
		Base:      parseBase(o, sc, 100, Arrivals{Process: "poisson", Gap: workload.ConstDist(30), Window: 3600}),
		MinStages: o.Int("min_stages", 3),
		MaxStages: o.Int("max_stages", 8),
		Input:     o.Sampler("input", jobmodel.Size, jobmodel.Sampler{Dist: workload.Dist{Kind: workload.LogNormal, A: 10e9, B: 1}}),
		SideInput: o.Sampler("side_input", jobmodel.Size, jobmodel.Sampler{Dist: workload.Dist{Kind: workload.LogNormal, A: 100e6, B: 2}}),
		JoinProb:  o.Fraction("join_prob", 0.3),
		// Tez lets a vertex keep its parent's parallelism; our choice of how often.
		OneToOneProb: o.Fraction("one_to_one_prob", 0.25),
		// Hive converts a join to a broadcast (map) join below 10 MB
		// (hive.auto.convert.join.noconditionaltask.size).
		BroadcastBelow: o.Bytes("broadcast_below", 10e6),
		// Hive sizes reducers at 256 MB each (hive.exec.reducers.bytes.per.reducer).
		BytesPerTask: o.Bytes("bytes_per_task", 256e6),
		OutputRatio:  o.Dist("output_ratio", jobmodel.Unitless, workload.Dist{Kind: workload.LogNormal, A: 0.5, B: 0.5}),
		// Tez starts shuffle consumers once a quarter of the producers are done
		// (tez.shuffle-vertex-manager.min-src-fraction = 0.25).
		SlowStart: o.Fraction("slowstart", 0.25),
		Params:    jobmodel.ParseCompute(o, sc),
		Labels:    jobmodel.ParseLabels(o, 0.5),
	}
	if m.MinStages < 2 || m.MaxStages < m.MinStages {
		o.Fail("min_stages", "need 2 <= min_stages <= max_stages, got %d and %d", m.MinStages, m.MaxStages)
	}
	if m.BytesPerTask <= 0 {
		o.Fail("bytes_per_task", "must be greater than 0")
	}
	return m, o.Err()
}

// Source starts a fresh pass.
func (m *Multistage) Source() workload.Source {
	g := &msSource{m: m,
		clock: m.Arrivals.start(rngFor(m.Seed, multistageStream, streamArrivals), m.Count),
		rng:   rngFor(m.Seed, multistageStream, streamSizes),
		label: m.Labels,
	}
	g.label.Start(m.Seed, multistageStream+streamLabels)
	return g
}

type msSource struct {
	m     *Multistage
	clock *clock
	rng   *rand.Rand
	label jobmodel.Labels
	i     int
	done  bool
}

func (g *msSource) Next() (*workload.Job, bool, error) {
	if g.done || g.m.Count > 0 && g.i >= g.m.Count {
		return nil, false, nil
	}
	t, ok := g.clock.next()
	if !ok || !g.m.more(g.i, t) {
		g.done = true
		return nil, false, nil
	}
	j := g.m.job(g.i, t, g.rng)
	g.label.Apply(&j)
	g.i++
	return &j, true, nil
}

// job draws one job. Draw order: chain length, main input, then per stage
// its ratio, the one-to-one and join draws, and a joined table's input.
func (m *Multistage) job(n int, t float64, r *rand.Rand) workload.Job {
	p := &m.Params
	j := workload.Job{ID: fmt.Sprintf("ms%d", n), Arrival: t}
	length := m.MinStages + r.IntN(m.MaxStages-m.MinStages+1)
	scan := func(id string, input float64) (tasks int, out float64) {
		ratio := m.OutputRatio.Sample(r, 0, 1)
		tasks = p.MapCount(input)
		j.Stages = append(j.Stages, m.stage(id, tasks, input/float64(tasks), ratio, p.MapRate, p.MapOverhead))
		return tasks, ratio * input
	}
	prevTasks, prevOut := scan("v0", m.Input.Sample(r))
	for k := 1; k < length; k++ {
		ratio := m.OutputRatio.Sample(r, 0, 1)
		oneToOne := r.Float64() < m.OneToOneProb
		join := r.Float64() < m.JoinProb
		shuffled, perTask := 0.0, 0.0
		var deps []workload.Dep
		if oneToOne {
			deps = append(deps, workload.Dep{Stage: fmt.Sprintf("v%d", k-1), Kind: workload.StartsAfter, Pattern: workload.OneToOne})
			perTask = prevOut / float64(prevTasks)
		} else {
			deps = append(deps, m.shuffle(fmt.Sprintf("v%d", k-1)))
			shuffled += prevOut
		}
		if join {
			side := fmt.Sprintf("t%d", k)
			_, sideOut := scan(side, m.SideInput.Sample(r))
			if sideOut < m.BroadcastBelow {
				deps = append(deps, workload.Dep{Stage: side, Kind: workload.StartsAfter, Pattern: workload.Broadcast})
				perTask += sideOut
			} else {
				deps = append(deps, m.shuffle(side))
				shuffled += sideOut
			}
		}
		tasks := prevTasks
		if !oneToOne {
			tasks = int(min(math.Max(1, math.Ceil(shuffled/m.BytesPerTask)), math.MaxInt32))
		}
		s := m.stage(fmt.Sprintf("v%d", k), tasks, 0, ratio, p.ReduceRate, p.ReduceOverhead)
		s.After = deps
		j.Stages = append(j.Stages, s)
		prevTasks, prevOut = tasks, ratio*(shuffled+perTask*float64(tasks))
	}
	return j
}

func (m *Multistage) shuffle(parent string) workload.Dep {
	return workload.Dep{Stage: parent, Kind: workload.FinishesBefore, SlowStart: m.SlowStart, Pattern: workload.ScatterGather}
}

func (m *Multistage) stage(id string, tasks int, input, ratio, rate, overhead float64) workload.Stage {
	return workload.Stage{ID: id, Generate: &workload.TaskGen{
		Count: tasks, Input: workload.ConstDist(input),
		Compute: workload.ConstDist(overhead), PerByte: 1 / rate,
		OutputRatio: ratio,
	}}
}

// OpenMultistage is the scenario.Opener of the "multistage" generator.
func OpenMultistage(_ string, options map[string]any, sc *scenario.Scenario) (workload.Source, error) {
	m, err := ParseMultistage(options, sc)
	if err != nil {
		return nil, fmt.Errorf("multistage options: %w", err)
	}
	return m.Source(), nil
}
