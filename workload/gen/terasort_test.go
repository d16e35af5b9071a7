package gen_test

import (
	"math"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/workload/gen"
)

// The CSS testbed's jobs with the catalog's scenario values (64 MiB
// blocks, slow-start 0.7, 20 one-slot hosts), by hand: 25e9 B / 67,108,864
// B = 372.5 -> 373 maps of 67,024,128.6 B each; 0.95 x 20 slots = 19
// reducers; a map computes 2 s + 67,024,128.6 / 4e6 = 18.756 s; a reducer
// fetches 25e9 / 19 = 1.3158e9 B and computes 2 s + that / 4e6 = 330.95 s.
func TestTerasortTestbed(t *testing.T) {
	sc := &scenario.Scenario{Seed: 1, BlockSize: 64 << 20, DefaultSlowStart: 0.7,
		Machines: make([]scenario.Machine, 20)}
	for i := range sc.Machines {
		sc.Machines[i].Slots = 1
	}
	jobs := open(t, gen.OpenTerasort, nil, 1)
	if len(jobs) != 3 {
		t.Fatalf("%d jobs without a scenario, want 3", len(jobs))
	}
	src, err := gen.OpenTerasort("", nil, sc)
	if err != nil {
		t.Fatal(err)
	}
	jobs = drain(t, src)
	if len(jobs) != 3 {
		t.Fatalf("%d jobs, want 3", len(jobs))
	}
	for i, j := range jobs {
		if j.Arrival != 0 || len(j.Stages) != 2 {
			t.Fatalf("job %d: arrival %g, %d stages", i, j.Arrival, len(j.Stages))
		}
		m, r := j.Stages[0].Generate, j.Stages[1].Generate
		if m.Count != 373 || r.Count != 19 {
			t.Fatalf("job %d: %d maps and %d reducers, want 373 and 19", i, m.Count, r.Count)
		}
		split := 25e9 / 373
		if math.Abs(m.Input.A-split) > 1e-6 || m.Output.A != m.Input.A {
			t.Fatalf("map input %g output %g, want %g each", m.Input.A, m.Output.A, split)
		}
		if want := 2 + split/4e6; math.Abs(m.Compute.A-want) > 1e-9 || m.PerByte != 0 {
			t.Fatalf("map compute %g (+%g/B), want %g", m.Compute.A, m.PerByte, want)
		}
		if red := 2 + 25e9/19/4e6; math.Abs(r.Compute.A+r.PerByte*25e9/19-red) > 1e-6 || math.Abs(red-330.95) > 0.01 {
			t.Fatalf("reducer time %g, want %g", r.Compute.A+r.PerByte*25e9/19, red)
		}
		dep := j.Stages[1].After[0]
		if dep.Stage != "map" || dep.SlowStart != 0.7 || r.OutputRatio != 1 {
			t.Fatalf("reduce edge %+v, output ratio %g", dep, r.OutputRatio)
		}
	}
}

// spread varies maps' compute and reducers' partition shares (same
// median); interarrival spaces the jobs; bad values are errors that name
// the option.
func TestTerasortOptions(t *testing.T) {
	jobs := open(t, gen.OpenTerasort, map[string]any{"jobs": 2, "spread": 0.3, "interarrival": "1m", "reducers": 4, "input": "1GB"}, 1)
	if len(jobs) != 2 || jobs[1].Arrival != 60 {
		t.Fatalf("%d jobs, second at %g", len(jobs), jobs[1].Arrival)
	}
	m, r := jobs[0].Stages[0].Generate, jobs[0].Stages[1].Generate
	if m.Compute.Kind != "lognormal" || m.Compute.B != 0.3 || r.Share.Kind != "lognormal" || r.Share.A != 1 || r.Count != 4 {
		t.Fatalf("map compute %+v, reducer share %+v, %d reducers", m.Compute, r.Share, r.Count)
	}
	if m.Count != 8 { // 1e9 / 128 MiB = 7.45
		t.Fatalf("%d maps of 1 GB at 128 MiB, want 8", m.Count)
	}
	for opt, want := range map[string]any{"jobs": 0, "reducers": 0, "spread": 11, "input": 0, "colour": "red"} {
		_, err := gen.OpenTerasort("", map[string]any{opt: want}, nil)
		if err == nil || !strings.Contains(err.Error(), opt) {
			t.Errorf("%s: %v: error %v, want one naming it", opt, want, err)
		}
	}
}
