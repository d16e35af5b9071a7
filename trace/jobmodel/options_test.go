package jobmodel

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/netsched/netsched/workload"
)

// YAML decoding gives ints as uint64 or int64, floats as float64; the
// CLI gives strings. Every reader accepts all of them.
func TestOptionValues(t *testing.T) {
	o := NewOptions(map[string]any{
		"a": uint64(3), "b": int64(4), "c": 2.5, "d": "7", "size": "64MiB", "dur": "1m30s",
		"rate": "1Gbps", "frac": "0.25", "seed": uint64(1 << 63), "yes": "true", "name": "x",
	})
	got := []float64{
		float64(o.Int("a", 0)), float64(o.Int("b", 0)), o.Number("c", 0), float64(o.Int("d", 0)),
		o.Bytes("size", 0), o.Duration("dur", 0), o.Rate("rate", 1), o.Fraction("frac", 0),
		float64(o.Seed("seed", 0)), o.Number("absent", 9),
	}
	want := []float64{3, 4, 2.5, 7, 64 << 20, 90, 125e6, 0.25, 1 << 63, 9}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	if !o.Bool("yes", false) || o.String("name", "") != "x" || o.String("absent", "d") != "d" {
		t.Error("bool or string")
	}
	if err := o.Err(); err != nil {
		t.Fatal(err)
	}
}

func TestOptionErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		read func(o *Options)
		opts map[string]any
		want string
	}{
		{"negative", func(o *Options) { o.Bytes("block", 1) }, map[string]any{"block": -5},
			`option "block": size -5 is negative`},
		{"not a number", func(o *Options) { o.Number("x", 1) }, map[string]any{"x": "abc"},
			`option "x": "abc" is not a number`},
		{"list for a number", func(o *Options) { o.Number("x", 1) }, map[string]any{"x": []any{1}},
			`option "x": expected a number or a string, got [1]`},
		{"bad duration", func(o *Options) { o.Duration("d", 1) }, map[string]any{"d": "soon"},
			`option "d": duration "soon": expected a number of seconds or a value like 1.5s, 200ms, 2h`},
		{"unknown with suggestion", func(o *Options) { o.Int("users", 0); o.Int("queues", 0) }, map[string]any{"user": 3},
			`unknown option "user"; did you mean "users"? (known: queues, users)`},
		{"nested unknown", func(o *Options) {
			items, _ := o.List("classes")
			for _, c := range items {
				c.Number("weight", 1)
			}
		}, map[string]any{"classes": []any{map[string]any{"weight": 1}, map[string]any{"wieght": 2}}},
			`unknown option "classes[1].wieght"; did you mean "weight"? (known: weight)`},
		{"list of scalars", func(o *Options) { o.List("classes") }, map[string]any{"classes": []any{3}},
			`option "classes[0]": expected a mapping, got 3`},
		{"zero weights", func(o *Options) { o.Weights("mix", []string{"a", "b"}) }, map[string]any{"mix": map[string]any{"a": 0}},
			`option "mix": weights sum to 0; give at least one of a, b a positive weight`},
		{"zipf size", func(o *Options) { o.Dist("input", Size, workload.Dist{}) }, map[string]any{"input": map[string]any{"dist": "zipf", "exponent": 1}},
			`option "input": zipf gives rank weights and only applies to shares`},
		{"wrong dist key", func(o *Options) { o.Dist("input", Size, workload.Dist{}) }, map[string]any{"input": map[string]any{"dist": "lognormal", "median": "1GB", "mean": 3}},
			`option "input": key "mean" does not apply to a lognormal distribution`},
		{"missing dist param", func(o *Options) { o.Dist("input", Size, workload.Dist{}) }, map[string]any{"input": map[string]any{"dist": "uniform", "min": 1}},
			`option "input": a uniform distribution needs "max"`},
		{"no dist kind", func(o *Options) { o.Dist("input", Size, workload.Dist{}) }, map[string]any{"input": map[string]any{"median": 1}},
			`option "input": a distribution mapping needs dist: const, uniform, exponential, lognormal, pareto or zipf`},
		{"empirical decreasing", func(o *Options) { o.Sampler("input", Size, Sampler{}) },
			map[string]any{"input": map[string]any{"dist": "empirical", "p": []any{0, 0.5, 1}, "values": []any{"1MB", "2MB", "1.5MB"}}},
			`option "input": p must increase and values must not decrease (at index 2)`},
		{"empirical ends", func(o *Options) { o.Sampler("input", Size, Sampler{}) },
			map[string]any{"input": map[string]any{"dist": "empirical", "p": []any{0.1, 1}, "values": []any{1, 2}}},
			`option "input": p must start at 0 and end at 1`},
		{"empirical lengths", func(o *Options) { o.Sampler("input", Size, Sampler{}) },
			map[string]any{"input": map[string]any{"dist": "empirical", "p": []any{0, 1}, "values": []any{1}}},
			`option "input": an empirical distribution needs p and values of the same length >= 2, got 2 and 1`},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := NewOptions(c.opts)
			c.read(o)
			if err := o.Err(); err == nil || err.Error() != c.want {
				t.Errorf("got %v\nwant %s", err, c.want)
			}
		})
	}
}

func TestDistForms(t *testing.T) {
	o := NewOptions(map[string]any{
		"c": "2GB", "u": map[string]any{"dist": "uniform", "min": "1s", "max": "3s"},
		"z": map[string]any{"dist": "zipf", "exponent": 0.8},
		"l": map[string]any{"dist": "lognormal", "median": "10MB", "sigma": 1.5},
	})
	got := []workload.Dist{o.Dist("c", Size, workload.Dist{}), o.Dist("u", Time, workload.Dist{}),
		o.Dist("z", Unitless, workload.Dist{}), o.Dist("l", Size, workload.Dist{})}
	want := []workload.Dist{{Kind: workload.Const, A: 2e9}, {Kind: workload.Uniform, A: 1, B: 3},
		{Kind: workload.Zipf, A: 0.8}, {Kind: workload.LogNormal, A: 10e6, B: 1.5}}
	if diff := cmp.Diff(want, got); diff != "" || o.Err() != nil {
		t.Errorf("dists (-want +got):\n%s %v", diff, o.Err())
	}
}

// An empirical table interpolates geometrically between positive points
// (so [1, 100] over p [0, 1] is log-uniform: half the draws fall below 10)
// and linearly from 0 (so [0, 10] is uniform with mean 5). With 20,000
// draws the standard error of a proportion near 0.5 is 0.0035 and of the
// uniform mean 0.02; the tolerances are over 5 standard errors.
func TestEmpiricalSampler(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	geo := Sampler{P: []float64{0, 1}, V: []float64{1, 100}}
	lin := Sampler{P: []float64{0, 1}, V: []float64{0, 10}}
	const n = 20000
	below, sum := 0, 0.0
	for range n {
		v := geo.Sample(r)
		if v < 1 || v > 100 {
			t.Fatalf("draw %g outside [1, 100]", v)
		}
		if v < 10 {
			below++
		}
		sum += lin.Sample(r)
	}
	if f := float64(below) / n; f < 0.48 || f > 0.52 {
		t.Errorf("log-uniform: %.4f below the geometric midpoint, want 0.5", f)
	}
	if m := sum / n; m < 4.9 || m > 5.1 {
		t.Errorf("linear: mean %.3f, want 5", m)
	}
	o := NewOptions(map[string]any{"s": map[string]any{"dist": "empirical", "p": []any{0, 0.5, 1}, "values": []any{0, "1kB", 3000}}})
	s := o.Sampler("s", Size, Sampler{})
	if diff := cmp.Diff(Sampler{P: []float64{0, 0.5, 1}, V: []float64{0, 1000, 3000}}, s); diff != "" || o.Err() != nil {
		t.Errorf("parsed (-want +got):\n%s %v", diff, o.Err())
	}
}
