package dawn_test

import (
	"testing"
	"testing/fstest"

	"github.com/netsched/netsched/sched/dawn"
)

// A hand-made run: two workflows (w1: jobs a, b; w2: job c) in a 100 s
// window; w1 finishes at 80 s (WCT 80), w2 at 150 s (WCT 140). 30 GB
// cross racks in all: 6 input, 10 dependent, 14 shuffle, per workflow
// 15, 3, 5, 7. Tasks: a/map (root, no parent job: input) crossed while
// saturated; b/map (root of a dependent job) did not, started
// unsaturated; b/reduce (intermediate) crossed while unsaturated.
func TestMeasure(t *testing.T) {
	files := fstest.MapFS{
		"summary.json": {Data: []byte(`{"bytes": {"input": {"cross_rack": 6e9}, "dependent": {"cross_rack": 10e9}, "shuffle": {"cross_rack": 14e9},
			"total": {"cross_rack": 30e9}}, "window": {"seconds": 100, "jobs": 2, "workflows": 1}}`)},
		"jobs.csv":      {Data: []byte("job_id,class,dependent_bytes\na,kmeans,0\nb,kmeans,5e9\nc,tpch-q2,0\n")},
		"workflows.csv": {Data: []byte("workflow_id,jobs,submit,finish,wct\na,2,0,80,80\nc,1,10,150,140\n")},
		"stages.csv":    {Data: []byte("job_id,stage,parents\na,map,0\nb,map,0\nb,reduce,1\n")},
		"tasks.csv": {Data: []byte("job_id,stage,cross_rack_bytes,saturated_at_start\n" +
			"a,map,1e9,true\nb,map,0,false\nb,reduce,2e9,false\n")},
	}
	m, err := dawn.Measure(files)
	if err != nil {
		t.Fatal(err)
	}
	if m.Workflows != 2 || m.InWindow != 1 || m.WCT != 110 || m.WCTInWindow != 80 || m.Window != 100 {
		t.Errorf("workflows %d, in window %d, WCT %g (in window %g), window %g; want 2, 1, 110, 80, 100", m.Workflows, m.InWindow, m.WCT, m.WCTInWindow, m.Window)
	}
	if m.Cross != 15e9 || m.CrossInput != 3e9 || m.CrossDependent != 5e9 || m.CrossShuffle != 7e9 {
		t.Errorf("cross-rack per workflow %g (%g / %g / %g), want 15, 3, 5, 7 GB", m.Cross, m.CrossInput, m.CrossDependent, m.CrossShuffle)
	}
	if k := m.ByClass["kmeans"]; k.Count != 1 || k.Mean != 80 {
		t.Errorf("kmeans WCT %+v, want one of 80 s", k)
	}
	want := dawn.TaskKinds{Input: dawn.Periods{SatCross: 1}, Dependent: dawn.Periods{UnsatLocal: 1}, Intermediate: dawn.Periods{UnsatCross: 1}}
	if m.Tasks != want {
		t.Errorf("tasks %+v, want %+v", m.Tasks, want)
	}
}
