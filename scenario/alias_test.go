package scenario

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/netsched/netsched/workload"
)

// Anchors, aliases and merge keys reuse parts of a file.
func TestAliases(t *testing.T) {
	text := `cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1Gbps}
scheduler: fifo
workload:
  jobs:
    - id: a
      stages:
        - &m {id: map, count: 2, input: &in {dist: uniform, min: 1MB, max: 2MB}, compute: 1s}
        - id: r
          after: map
          count: 1
          input: *in
    - id: b
      stages:
        - *m
        - <<: {count: 3, compute: 2s}
          id: red
          after: map
`
	sc, err := Parse("a.yaml", []byte(text), "")
	if err != nil {
		t.Fatal(err)
	}
	in := workload.Dist{Kind: workload.Uniform, A: 1e6, B: 2e6}
	sec := func(s float64) workload.Dist { return workload.Dist{Kind: workload.Const, A: s} }
	jobs := readJobs(t, sc)
	got := []*workload.TaskGen{jobs[0].Stages[0].Generate, jobs[0].Stages[1].Generate, jobs[1].Stages[0].Generate, jobs[1].Stages[1].Generate}
	want := []*workload.TaskGen{
		{Count: 2, Input: in, Compute: sec(1)},
		{Count: 1, Input: in},
		{Count: 2, Input: in, Compute: sec(1)},
		{Count: 3, Compute: sec(2)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
