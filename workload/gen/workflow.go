package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/jobmodel"
	"github.com/netsched/netsched/workload"
)

// Workflow generates workflows: DAGs of MapReduce jobs linked by
// workload.Job.After (Dawn §2.2), or with Tez one multi-stage job per
// workflow (Dawn §6.2). All jobs of a workflow are submitted at the
// workflow's arrival and start when their parent jobs finish; a dependent
// job's maps read its parents' outputs.
type Workflow struct {
	Base
	Mix    []float64 // weight per entry of Kinds
	Input  *jobmodel.Sampler
	Ratios map[string]Ratios
	// DependentRatio is the dependent bytes of an ML workflow over its
	// input, reached by calibrating the load job (unless ratios.load.output
	// is given).
	DependentRatio float64
	Queries        []int // TPC-H query numbers tpch workflows take in turn
	// Tez makes each workflow one multi-stage job (tez.go); BroadcastBelow
	// and TezSlowStart set its map joins and shuffles.
	Tez            bool
	BroadcastBelow float64
	TezSlowStart   float64
	Params         jobmodel.Params
	Labels         jobmodel.Labels

	shapes map[string][]shapeJob // ML kinds, ratios applied; tpch under "q1".."q22"
}

const workflowStream = 0x574b4600

// ParseWorkflow reads the "workflow" generator's options.
func ParseWorkflow(options map[string]any, sc *scenario.Scenario) (*Workflow, error) {
	o := jobmodel.NewOptions(options)
	w := &Workflow{
		// Dawn §6.1.4 uses a mean benchmark inter-arrival of 60 s; §5.2
		// submits TPC-H queries uniformly over 10 minutes.
		Base:           parseBase(o, sc, 100, Arrivals{Process: "poisson", Gap: workload.ConstDist(60), Window: 600}),
		Params:         jobmodel.ParseParams(o, sc),
		Labels:         jobmodel.ParseLabels(o, 0.5),
		Ratios:         map[string]Ratios{},
		DependentRatio: o.Positive("dependent_ratio", DependentRatio),
		Tez:            o.Bool("tez", false),
		// Hive converts a join to a map join below 10 MB
		// (hive.auto.convert.join.noconditionaltask.size).
		BroadcastBelow: o.Bytes("broadcast_below", 10e6),
		// Tez starts shuffle consumers once a quarter of the producers are
		// done (tez.shuffle-vertex-manager.min-src-fraction = 0.25).
		TezSlowStart: o.Fraction("tez_slowstart", 0.25),
		Queries:      parseQueries(o, options),
		shapes:       map[string][]shapeJob{},
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
	if o.Has("queries") && w.Mix[len(Kinds)-1] == 0 {
		o.Fail("queries", "no tpch workflow runs them: give tpch a weight in mix")
	}
	for _, k := range []string{"broadcast_below", "tez_slowstart"} {
		if !w.Tez && o.Has(k) {
			o.Fail(k, "applies to tez: true only")
		}
	}
	rs := o.Map("ratios")
	loadOutput := false
	for _, role := range Roles {
		r := defaultRatios[role]
		if rs != nil {
			if m := rs.Map(role); m != nil {
				r = Ratios{Shuffle: m.Number("shuffle", r.Shuffle), Output: m.Number("output", r.Output)}
				loadOutput = loadOutput || role == "load" && m.Has("output")
			}
		}
		w.Ratios[role] = r
	}
	if err := o.Err(); err != nil {
		return w, err
	}
	for _, kind := range mlKinds {
		js := mlShape(kind)
		applyRatios(js, w.Ratios)
		if !loadOutput {
			if w.Ratios["load"].Shuffle == 0 {
				o.Fail("ratios", "ratios.load.shuffle is 0, so no load output can reach dependent_ratio; give ratios.load.output too")
				break
			}
			calibrateLoad(js, w.DependentRatio)
		}
		w.shapes[kind] = js
	}
	for q := range tpchQueries {
		w.shapes[fmt.Sprintf("q%d", q)] = tpchShape(q)
	}
	return w, o.Err()
}

// parseQueries reads `queries`, a list such as [q1, q9]; all 22 by default.
func parseQueries(o *jobmodel.Options, options map[string]any) []int {
	all := make([]int, 22)
	for i := range all {
		all[i] = i + 1
	}
	if !o.Has("queries") {
		return all
	}
	var list []any
	switch v := options["queries"].(type) {
	case []any:
		list = v
	case []string:
		for _, q := range v {
			list = append(list, q)
		}
	}
	if len(list) == 0 {
		o.Fail("queries", "expected a non-empty list of TPC-H queries such as [q1, q9], got %v", options["queries"])
		return all
	}
	var qs []int
	for _, v := range list {
		name, _ := v.(string)
		q := 0
		if n, err := fmt.Sscanf(name, "q%d", &q); n != 1 || err != nil || fmt.Sprintf("q%d", q) != name || q < 1 || q > 22 {
			o.Fail("queries", "%v is not a TPC-H query (q1 to q22)", v)
			return all
		}
		if slices.Contains(qs, q) {
			o.Fail("queries", "q%d is listed twice", q)
			return all
		}
		qs = append(qs, q)
	}
	return qs
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
	deck    []int          // TPC-H queries left in this round
	pending []workload.Job // jobs of the current workflow not yet returned
	done    bool
}

func (g *wfSource) Next() (*workload.Job, bool, error) {
	for len(g.pending) == 0 {
		if g.done || g.w.Count > 0 && g.n >= g.w.Count {
			return nil, false, nil
		}
		t, ok := g.clock.next()
		if !ok || !g.w.more(g.n, t) {
			g.done = true
			return nil, false, nil
		}
		g.pending = g.w.workflow(g.n, t, g.rng, &g.label, g.query)
		g.n++
	}
	j := g.pending[0]
	g.pending = g.pending[1:]
	return &j, true, nil
}

// query deals the next TPC-H query: each round of len(Queries) tpch
// workflows runs every listed query once, in an order shuffled by r (Dawn
// §5.2 runs each of the 22 queries).
func (g *wfSource) query(r *rand.Rand) int {
	if len(g.deck) == 0 {
		g.deck = slices.Clone(g.w.Queries)
		r.Shuffle(len(g.deck), func(a, b int) { g.deck[a], g.deck[b] = g.deck[b], g.deck[a] })
	}
	q := g.deck[0]
	g.deck = g.deck[1:]
	return q
}

// workflow draws workflow number n: kind, input size, (tpch) the query,
// then sizes every job from its parents' expected outputs.
func (w *Workflow) workflow(n int, t float64, r *rand.Rand, l *jobmodel.Labels, query func(*rand.Rand) int) []workload.Job {
	kind := Kinds[pickWeight(r, w.Mix)]
	sizes := kindInputs[kind]
	input := sizes[r.IntN(len(sizes))]
	if w.Input != nil {
		input = w.Input.Sample(r)
	}
	q, sh := 0, w.shapes[kind]
	class := kind
	if kind == "tpch" {
		q = query(r)
		sh = w.shapes[fmt.Sprintf("q%d", q)]
		class = fmt.Sprintf("tpch-q%d", q)
	}
	sz := size(sh, input)
	var label workload.Job
	l.Apply(&label)
	var js []workload.Job
	if w.Tez {
		js = []workload.Job{w.tezJob(tezID(n, kind, q), t, input, sz)}
	} else {
		ids := make([]string, len(sz))
		for i, s := range sz {
			ids[i] = fmt.Sprintf("wf%d-%s-%s", n, kind, s.name)
			j := w.job(ids[i], t, s)
			for _, p := range s.parents {
				j.After = append(j.After, ids[p])
			}
			js = append(js, j)
		}
	}
	for i := range js {
		js[i].Class = class
		js[i].User, js[i].Queue, js[i].Recurring = label.User, label.Queue, label.Recurring
	}
	return js
}

// job builds one MapReduce job of a workflow. Maps are sized by the
// expected total input (file plus parents' outputs) but read only the file
// part from the DFS; their output is the job's shuffle over all they read,
// and the reducers' output out x what they fetch (output_ratio), so data
// sizes stay consistent along the DAG whatever the engine's split.
func (w *Workflow) job(id string, t float64, s sized) workload.Job {
	total := s.file + s.dep
	maps := w.Params.MapCount(total)
	reds := w.Params.ReduceCount(s.shuffle, s.output)
	p := w.Params
	mapRatio := 0.0
	if total > 0 {
		mapRatio = s.shuffle / total
	}
	return workload.Job{ID: id, Arrival: t, Stages: []workload.Stage{
		{ID: "map", Generate: &workload.TaskGen{
			Count: maps, Input: workload.ConstDist(s.file / float64(maps)),
			Compute: workload.ConstDist(p.MapOverhead), PerByte: 1 / p.MapRate,
			OutputRatio: mapRatio,
		}},
		{ID: "reduce",
			After: []workload.Dep{{Stage: "map", Kind: workload.FinishesBefore, SlowStart: p.SlowStart, Pattern: workload.ScatterGather}},
			Generate: &workload.TaskGen{
				Count: reds, Share: p.ReduceSkew,
				Compute: workload.ConstDist(p.ReduceOverhead), PerByte: 1 / p.ReduceRate,
				OutputRatio: s.out,
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
