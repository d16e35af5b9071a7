package jobpacker_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/jobpacker"
	"github.com/netsched/netsched/sched/jobpacker/rackplan"
)

// online is n recurring jobs arriving every gap seconds on 3 racks of two
// 2-slot machines (hybrid network, 20 MB elephants): 6 maps reading 100 MB
// and writing 30 MB each (180 MB of shuffle), 2 reducers.
func online(n int, gap float64, extra string) string {
	var b strings.Builder
	b.WriteString(`
cluster: {racks: 3, machines_per_rack: 2, slots_per_machine: 2, nic: 1GB/s}
network:
  topology: hybrid
  rack_uplink: 200MB/s
  rack_downlink: 200MB/s
  ocs: {port_speed: 1GB/s, interval: 100ms, delay: 1ms, elephant: 20MB}
` + extra + `
workload:
  jobs:
`)
	for i := range n {
		fmt.Fprintf(&b, "    - {id: j%d, arrival: %gs, recurring: true, stages: [{id: map, count: 6, input: 100MB, compute: 1s, output: 30MB}, {id: reduce, after: [{stage: map, slowstart: 0.05}], count: 2, compute: 1s}]}\n", i, float64(i)*gap)
	}
	return b.String()
}

func onlineConfig() jobpacker.Config {
	c := jobpacker.DefaultConfig()
	c.Elephant, c.OCS, c.EPS, c.Over = 20e6, 1e9, 200e6, 0
	return c
}

// When the jobs arrive when predicted, the real-time scheduler carries the
// plan out exactly: every task runs on a rack whose sequence plans its
// job's maps (or reduces), no rack runs more of them than planned, each
// rack starts its planned entries in sequence order, and every map reads
// its block on its own rack (JobPacker placed one replica there).
func TestPlanFollowed(t *testing.T) {
	s := jobpacker.New(onlineConfig())
	res := schedtest.Run(t, online(4, 20, ""), s)
	plan := s.RackPlan()
	if s.Batch() {
		t.Error("jobs arriving apart were planned as a batch")
	}
	type key struct {
		rack int
		job  string
		kind rackplan.Kind
	}
	ran := map[key]int{}
	first := map[key]float64{}
	for _, tr := range res.Tasks {
		k := key{tr.Machine / 2, tr.Job, rackplan.Maps}
		if tr.Stage == "reduce" {
			k.kind = rackplan.Reduces
		} else if tr.Locality == "off-switch" {
			t.Errorf("%s map %d on machine %d read across racks", tr.Job, tr.Index, tr.Machine)
		}
		ran[k]++
		if f, ok := first[k]; !ok || tr.Start < f {
			first[k] = tr.Start
		}
	}
	for k, n := range ran {
		if q := plan.Quota(k.job, k.kind, k.rack); q < n {
			t.Errorf("rack %d ran %d %s of %s, planned %d", k.rack, n, k.kind, k.job, q)
		}
	}
	for r, seq := range plan.Seq {
		last := -1.0
		for _, e := range seq {
			f, ok := first[key{r, e.Job, e.Kind}]
			if !ok {
				t.Errorf("rack %d never ran its planned %s of %s", r, e.Kind, e.Job)
				continue
			}
			if f < last {
				t.Errorf("rack %d started %s of %s at %gs, before the entry ahead of it (%gs)", r, e.Kind, e.Job, f, last)
			}
			last = f
		}
	}
	if len(res.Jobs) != 4 {
		t.Errorf("%d jobs finished", len(res.Jobs))
	}
}

// Every job predicted at 0: the batch scenario. Two runs write the same
// files, byte for byte (timing.json aside).
func TestBatchDeterministic(t *testing.T) {
	files := func() map[string]string {
		s := jobpacker.New(onlineConfig())
		res := schedtest.Run(t, online(6, 0, ""), s)
		if !s.Batch() {
			t.Error("jobs all predicted at 0 were not planned as a batch")
		}
		fs, err := res.Files()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, f := range fs {
			if f.Name != "timing.json" {
				out[f.Name] = string(f.Bytes())
			}
		}
		return out
	}
	a, b := files(), files()
	for name, data := range a {
		if b[name] != data {
			t.Errorf("%s differs between two runs", name)
		}
	}
}
