package nas_test

import (
	"strings"
	"testing"

	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/nas"
)

// Hand-made run: two machines with one container. A (heavy, 200 MB) runs
// both maps on machine 0 over [0, 10) and its reducer from 10; B is
// map-only (light); C (medium, 5 MB) starts its reducer at 4 with one of
// its two maps done.
const measureJobs = `job_id,user,arrival,finish,jct,shuffle_bytes
A,u,0,20,20,200000000
B,u,0,10,10,0
C,u,0,12,12,5000000
`

const measureTasks = `job_id,stage,index,machine,start,finish,output_bytes
A,map,0,0,0,10,100000000
A,map,1,0,0,10,100000000
A,reduce,0,1,10,20,0
B,map,0,1,0,10,0
B,map,1,1,0,10,0
C,map,0,1,0,4,2500000
C,map,1,1,4,8,2500000
C,reduce,0,1,4,12,0
`

// Fig. 3d: A's reducer saw 2/2 maps done, C's 1/2: mean 0.75.
// Fig. 3e, samples at 5, 10, 15 s: at 5 s the jobs hold S = 205 MB over
// K = 6 maps, a 1-container node's budget is 34.2 MB; machine 0 holds A's
// 200 MB (over), machine 1 C's 2.5 MB (under): 1/2. At 10 s and 15 s no
// map runs: 0. Mean 1/6.
// Fig. 5a: one job per class; throughput = 1 / (finish - arrival).
func TestMeasureHandMadeRun(t *testing.T) {
	m, err := nas.Measure(strings.NewReader(measureJobs), strings.NewReader(measureTasks),
		nas.MeasureConfig{Machines: 2, Slots: 1, Interval: 5, Light: 1e6, Heavy: 100e6, MapStage: "map"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Jobs != 3 || !schedtest.Near(m.MapProgress, 0.75) || !schedtest.Near(m.OverThreshold, 1.0/6) {
		t.Fatalf("jobs %d, map progress %v, over threshold %v; want 3, 0.75, 1/6", m.Jobs, m.MapProgress, m.OverThreshold)
	}
	want := [3]nas.ClassMeasure{{Jobs: 1, MeanJCT: 10, Throughput: 0.1}, {Jobs: 1, MeanJCT: 12, Throughput: 1.0 / 12}, {Jobs: 1, MeanJCT: 20, Throughput: 0.05}}
	for k, w := range want {
		g := m.ByClass[k]
		if g.Jobs != w.Jobs || !schedtest.Near(g.MeanJCT, w.MeanJCT) || !schedtest.Near(g.Throughput, w.Throughput) {
			t.Errorf("class %v: %+v, want %+v", nas.Class(k), g, w)
		}
	}
}

func TestMeasureBadInput(t *testing.T) {
	cfg := nas.MeasureConfig{Machines: 2, Slots: 1, Interval: 5, Light: 1e6, Heavy: 100e6, MapStage: "map"}
	for _, c := range []struct{ jobs, tasks, want string }{
		{"job_id,arrival\nA,0\n", measureTasks, "finish"},
		{measureJobs, "job_id,stage,index,machine,start,finish,output_bytes\nZ,map,0,0,0,1,1\n", `"Z"`},
		{measureJobs, "job_id,stage,index,machine,start,finish,output_bytes\nA,map,0,7,0,1,1\n", "machine 7"},
		{measureJobs, "job_id,stage,index,machine,start,finish,output_bytes\nA,map,0,0,soon,1,1\n", "start"},
	} {
		_, err := nas.Measure(strings.NewReader(c.jobs), strings.NewReader(c.tasks), cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one mentioning %s", err, c.want)
		}
	}
	if _, err := nas.Measure(strings.NewReader(measureJobs), strings.NewReader(measureTasks), nas.MeasureConfig{}); err == nil {
		t.Error("a zero config was accepted")
	}
}
