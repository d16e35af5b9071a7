package gen

import (
	"fmt"
	"math/rand/v2"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/jobmodel"
	"github.com/netsched/netsched/workload"
)

// Class is one job size class of a synthetic workload. Shuffle and output
// bytes are drawn either directly (Shuffle, Output, MapOutput set) or as
// ratios of the input (ShuffleRatio, OutputRatio, MapOutputRatio).
type Class struct {
	Name    string
	Weight  float64          // relative frequency in the mix
	Input   jobmodel.Sampler // input bytes
	MapOnly float64          // probability that a job of this class has no reduce stage

	Shuffle, Output, MapOutput *jobmodel.Sampler // bytes (jobs with reduces; map-only jobs)

	ShuffleRatio   workload.Dist // shuffle / input (jobs with reduces)
	OutputRatio    workload.Dist // output / shuffle (jobs with reduces)
	MapOutputRatio workload.Dist // output / input (map-only jobs)
}

// Synthetic generates MapReduce jobs: arrivals from a process, a class
// drawn from the mix, sizes from the class, labels (users, queues,
// recurring) and task skew from the options.
type Synthetic struct {
	Base
	Classes []Class
	Params  jobmodel.Params
	Labels  jobmodel.Labels
}

// syntheticStream is this generator's PCG stream base.
const syntheticStream = 0x53594e00

// defaultClasses is the synthetic generator's built-in mix (our choice: a
// simple three-class mix with SWIM-like proportions; fb2010 gives a mix
// fitted to the trace).
func defaultClasses() []Class {
	mk := func(name string, w, median, sigma float64) Class {
		return Class{Name: name, Weight: w, Input: jobmodel.Sampler{Dist: workload.Dist{Kind: workload.LogNormal, A: median, B: sigma}},
			MapOnly:        0.3,
			ShuffleRatio:   workload.Dist{Kind: workload.LogNormal, A: 0.5, B: 1},
			OutputRatio:    workload.Dist{Kind: workload.LogNormal, A: 0.5, B: 1},
			MapOutputRatio: workload.Dist{Kind: workload.LogNormal, A: 0.5, B: 1}}
	}
	return []Class{mk("small", 0.6, 64e6, 1), mk("medium", 0.3, 4e9, 1), mk("large", 0.1, 100e9, 0.5)}
}

// ParseSynthetic reads the "synthetic" generator's options.
func ParseSynthetic(options map[string]any, sc *scenario.Scenario) (*Synthetic, error) {
	o := jobmodel.NewOptions(options)
	s := &Synthetic{
		Base:   parseBase(o, sc, 1000, Arrivals{Process: "poisson", Gap: workload.ConstDist(10), Window: 3600}),
		Params: jobmodel.ParseParams(o, sc),
		Labels: jobmodel.ParseLabels(o, 0.5),
	}
	items, given := o.List("classes")
	if !given {
		s.Classes = defaultClasses()
	}
	for i, c := range items {
		s.Classes = append(s.Classes, parseClass(c, i))
	}
	if given && len(items) == 0 {
		o.Fail("classes", "give at least one class")
	}
	total := 0.0
	for _, c := range s.Classes {
		total += c.Weight
	}
	if total == 0 && len(s.Classes) > 0 {
		o.Fail("classes", "class weights sum to 0")
	}
	return s, o.Err()
}

// parseClass reads one entry of `classes`.
func parseClass(c *jobmodel.Options, i int) Class {
	cl := Class{
		Name:           c.String("name", fmt.Sprintf("class%d", i)),
		Weight:         c.Number("weight", 1),
		Input:          c.Sampler("input", jobmodel.Size, jobmodel.Sampler{Dist: workload.ConstDist(128 << 20)}),
		MapOnly:        c.Fraction("map_only", 0),
		ShuffleRatio:   c.Dist("shuffle_ratio", jobmodel.Unitless, workload.ConstDist(1)),
		OutputRatio:    c.Dist("output_ratio", jobmodel.Unitless, workload.ConstDist(1)),
		MapOutputRatio: c.Dist("map_output_ratio", jobmodel.Unitless, workload.ConstDist(1)),
	}
	for _, f := range []struct {
		abs, ratio string
		dst        **jobmodel.Sampler
	}{{"shuffle", "shuffle_ratio", &cl.Shuffle}, {"output", "output_ratio", &cl.Output}, {"map_output", "map_output_ratio", &cl.MapOutput}} {
		if c.Has(f.abs) {
			if c.Has(f.ratio) {
				c.Fail(f.abs, "give %s or %s, not both", f.abs, f.ratio)
			}
			v := c.Sampler(f.abs, jobmodel.Size, jobmodel.Sampler{})
			*f.dst = &v
		}
	}
	return cl
}

// Source starts a fresh pass over the workload.
func (s *Synthetic) Source() workload.Source {
	g := &synthSource{s: s,
		clock: s.Arrivals.start(rngFor(s.Seed, syntheticStream, streamArrivals), s.Count),
		sizes: rngFor(s.Seed, syntheticStream, streamSizes),
		label: s.Labels,
	}
	g.label.Start(s.Seed, syntheticStream+streamLabels)
	return g
}

type synthSource struct {
	s     *Synthetic
	clock *clock
	sizes *rand.Rand
	label jobmodel.Labels
	i     int
	done  bool
}

func (g *synthSource) Next() (*workload.Job, bool, error) {
	if g.done || g.s.Count > 0 && g.i >= g.s.Count {
		return nil, false, nil
	}
	t, ok := g.clock.next()
	if !ok || !g.s.more(g.i, t) {
		g.done = true
		return nil, false, nil
	}
	j, err := g.s.job(g.i, t, g.sizes)
	if err != nil {
		g.done = true
		return nil, false, err
	}
	g.label.Apply(&j)
	g.i++
	return &j, true, nil
}

// job draws the i-th job. Draw order is fixed: class, input, map-only,
// then the two ratios.
func (s *Synthetic) job(i int, t float64, r *rand.Rand) (workload.Job, error) {
	c := &s.Classes[pick(r, s.Classes)]
	input := c.Input.Sample(r)
	var shuffle, output float64
	if r.Float64() < c.MapOnly {
		output = draw(r, c.MapOutput, c.MapOutputRatio, input)
	} else {
		shuffle = draw(r, c.Shuffle, c.ShuffleRatio, input)
		output = draw(r, c.Output, c.OutputRatio, shuffle)
	}
	id := fmt.Sprintf("job%d", i)
	if err := jobmodel.Check(input, shuffle, output); err != nil {
		return workload.Job{}, fmt.Errorf("synthetic job %s (class %s): %v", id, c.Name, err)
	}
	j := s.Params.MapReduce(id, t, input, shuffle, output)
	j.Class = c.Name
	return j, nil
}

// draw takes an absolute size when the class gives one, else ratio x base.
func draw(r *rand.Rand, abs *jobmodel.Sampler, ratio workload.Dist, base float64) float64 {
	if abs != nil {
		return abs.Sample(r)
	}
	return base * ratio.Sample(r, 0, 1)
}

// pick draws a class index by weight.
func pick(r *rand.Rand, cs []Class) int {
	w := make([]float64, len(cs))
	for i, c := range cs {
		w[i] = c.Weight
	}
	return pickWeight(r, w)
}

// OpenSynthetic is the scenario.Opener of the "synthetic" generator.
func OpenSynthetic(_ string, options map[string]any, sc *scenario.Scenario) (workload.Source, error) {
	s, err := ParseSynthetic(options, sc)
	if err != nil {
		return nil, fmt.Errorf("synthetic options: %w", err)
	}
	return s.Source(), nil
}
