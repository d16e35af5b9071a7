package scenario

import (
	"fmt"
	"strings"
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

// Aliases are budgeted by what they expand to: a small file whose anchor
// of many tasks is used by many stages is rejected at the alias that
// crosses MaxAliasNodes, and so is a chain of anchors that doubles at
// each level.
func TestAliasExpansionIsBudgeted(t *testing.T) {
	var b strings.Builder
	b.WriteString("cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1Gbps}\nworkload:\n  jobs:\n    - id: a\n      stages:\n")
	b.WriteString("        - {id: s0, tasks: &t [" + strings.Repeat("{compute: 1s}, ", 2499) + "{compute: 1s}]}\n")
	for i := 1; i < 1900; i++ {
		fmt.Fprintf(&b, "        - {id: s%d, tasks: *t}\n", i)
	}
	_, err := Parse("a.yaml", []byte(b.String()), "")
	if want := "a.yaml:106:29: workload.jobs[0].stages[100].tasks: the aliases of this document expand to more than 1000000 YAML nodes"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v\nwant %s...", err, want)
	}

	laughs := "a0: &a0 [x, x]\n"
	for i := 1; i < 40; i++ {
		laughs += fmt.Sprintf("a%d: &a%d [*a%d, *a%d]\n", i, i, i-1, i-1)
	}
	_, err = Parse("l.yaml", []byte(laughs), "")
	if want := "l.yaml:18:12: a17[0]: "; err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "more than 1000000 YAML nodes") {
		t.Errorf("got %v\nwant %s...", err, want)
	}
}
