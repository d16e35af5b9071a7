package gen

import (
	"fmt"
	"math/rand/v2"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/jobmodel"
	"github.com/netsched/netsched/workload"
)

// Workflow generates workflows: DAGs of MapReduce jobs linked by
// workload.Job.After (Dawn §2.2). All jobs of a workflow are submitted at
// the workflow's arrival and start when their parent jobs finish; a
// dependent job's maps read its parents' outputs.
type Workflow struct {
	Base
	Mix      []float64 // weight per entry of Kinds
	Input    *jobmodel.Sampler
	Ratios   map[string]Ratios
	MinDepth int // tpch depth range
	MaxDepth int
	Params   jobmodel.Params
	Labels   jobmodel.Labels
}

const workflowStream = 0x574b4600

// ParseWorkflow reads the "workflow" generator's options.
func ParseWorkflow(options map[string]any, sc *scenario.Scenario) (*Workflow, error) {
	o := jobmodel.NewOptions(options)
	w := &Workflow{
		// Dawn §6.1 uses a mean benchmark inter-arrival of 60 s; §5.2 submits
		// TPC-H queries uniformly over 10 minutes.
		Base:     parseBase(o, sc, 100, Arrivals{Process: "poisson", Gap: workload.ConstDist(60), Window: 600}),
		Params:   jobmodel.ParseParams(o, sc),
		Labels:   jobmodel.ParseLabels(o, 0.5),
		MinDepth: o.Int("tpch_min_depth", 4),
		MaxDepth: o.Int("tpch_max_depth", 8),
		Ratios:   map[string]Ratios{},
	}
	if mix, ok := o.Weights("mix", Kinds); ok {
		w.Mix = mix
	} else {
		w.Mix = []float64{1, 1, 1, 1, 1, 0} // Dawn §5.2: a random ML benchmark per submission
	}
	if o.Has("input") {
		in := o.Sampler("input", jobmodel.Size, jobmodel.Sampler{})
		w.Input = &in
	}
	if w.MinDepth < 4 || w.MaxDepth < w.MinDepth {
		o.Fail("tpch_min_depth", "tpch depths need 4 <= tpch_min_depth <= tpch_max_depth, got %d and %d", w.MinDepth, w.MaxDepth)
	}
	rs := o.Map("ratios")
	for _, role := range Roles {
		r := defaultRatios[role]
		if rs != nil {
			if m := rs.Map(role); m != nil {
				r = Ratios{Shuffle: m.Number("shuffle", r.Shuffle), Output: m.Number("output", r.Output)}
			}
		}
		w.Ratios[role] = r
	}
	return w, o.Err()
}

// Source starts a fresh pass.
func (w *Workflow) Source() workload.Source {
	g := &wfSource{w: w,
		clock: w.Arrivals.start(rngFor(w.Seed, workflowStream, streamArrivals), w.Count),
		rng:   rngFor(w.Seed, workflowStream, streamSizes),
		label: w.Labels,
	}
	g.label.Start(w.Seed, workflowStream+streamLabels)
	return g
}

type wfSource struct {
	w       *Workflow
	clock   *clock
	rng     *rand.Rand
	label   jobmodel.Labels
	n       int            // workflows generated
	pending []workload.Job // jobs of the current workflow not yet returned
	done    bool
}

func (g *wfSource) Next() (*workload.Job, bool, error) {
	for len(g.pending) == 0 {
		if g.done || g.w.Count > 0 && g.n >= g.w.Count {
			return nil, false, nil
		}
		t := g.clock.next()
		if !g.w.more(g.n, t) {
			g.done = true
			return nil, false, nil
		}
		g.pending = g.w.workflow(g.n, t, g.rng, &g.label)
		g.n++
	}
	j := g.pending[0]
	g.pending = g.pending[1:]
	return &j, true, nil
}

// workflow draws workflow number n: kind, input size, (tpch) depth, then
// sizes every job from its parents' expected outputs.
func (w *Workflow) workflow(n int, t float64, r *rand.Rand, l *jobmodel.Labels) []workload.Job {
	kind := Kinds[pickWeight(r, w.Mix)]
	sizes := kindInputs[kind]
	input := sizes[r.IntN(len(sizes))]
	if w.Input != nil {
		input = w.Input.Sample(r)
	}
	sh := shape(kind, r, w.MinDepth, w.MaxDepth)
	var label workload.Job
	l.Apply(&label)
	out := make([]float64, len(sh)) // expected output bytes per job
	ids := make([]string, len(sh))
	js := make([]workload.Job, len(sh))
	for i, s := range sh {
		ids[i] = fmt.Sprintf("wf%d-%s-%s", n, kind, s.name)
		file := input * s.input
		dep := 0.0
		var after []string
		for _, p := range s.parents {
			dep += out[p]
			after = append(after, ids[p])
		}
		ratio := w.Ratios[s.role]
		shuffle := (file + dep) * ratio.Shuffle
		out[i] = shuffle * ratio.Output
		js[i] = w.job(ids[i], t, file, file+dep, shuffle, ratio)
		js[i].After = after
		js[i].Class = kind
		js[i].User, js[i].Queue, js[i].Recurring = label.User, label.Queue, label.Recurring
	}
	return js
}

// job builds one MapReduce job of a workflow. Maps are sized by the
// expected total input (file plus parents' outputs) but read only the file
// part from the DFS; their output and the reducers' output follow the
// role's ratios of whatever they actually read (output_ratio), so data
// sizes stay consistent along the DAG whatever the engine's split.
func (w *Workflow) job(id string, t, file, total, shuffle float64, r Ratios) workload.Job {
	maps := w.Params.MapCount(total)
	reds := w.Params.ReduceCount(shuffle, shuffle*r.Output)
	p := w.Params
	return workload.Job{ID: id, Arrival: t, Stages: []workload.Stage{
		{ID: "map", Generate: &workload.TaskGen{
			Count: maps, Input: workload.ConstDist(file / float64(maps)),
			Compute: workload.ConstDist(p.MapOverhead), PerByte: 1 / p.MapRate,
			OutputRatio: r.Shuffle,
		}},
		{ID: "reduce",
			After: []workload.Dep{{Stage: "map", Kind: workload.FinishesBefore, SlowStart: p.SlowStart, Pattern: workload.ScatterGather}},
			Generate: &workload.TaskGen{
				Count: reds, Share: p.ReduceSkew,
				Compute: workload.ConstDist(p.ReduceOverhead), PerByte: 1 / p.ReduceRate,
				OutputRatio: r.Output,
			}},
	}}
}

// pickWeight draws an index by weight.
func pickWeight(r *rand.Rand, w []float64) int {
	total := 0.0
	for _, x := range w {
		total += x
	}
	u := r.Float64() * total
	for i, x := range w {
		if u < x {
			return i
		}
		u -= x
	}
	return len(w) - 1
}

// OpenWorkflow is the scenario.Opener of the "workflow" generator.
func OpenWorkflow(_ string, options map[string]any, sc *scenario.Scenario) (workload.Source, error) {
	w, err := ParseWorkflow(options, sc)
	if err != nil {
		return nil, fmt.Errorf("workflow options: %w", err)
	}
	return w.Source(), nil
}
