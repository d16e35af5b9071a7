package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The wildcard case of sched/pushbox (TestWildcardMatters) as a sweep's
// base, with m = 2 for every run and the W ablation as the variant: the
// counters show the one wildcard admission and its denial, and the small
// job S (the <10MB bin, touched) is 4 s slower.
const sweep = `
name: pbstats-test
base:
  cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 3, nic: 1MB/s}
  workload:
    jobs:
      - id: L
        stages:
          - {id: map, tasks: [{output: 10MB, pin: 1}]}
          - {id: reduce, after: map, tasks: [{share: 1, pin: 0}, {share: 1, pin: 0}]}
      - id: S
        arrival: 1s
        stages:
          - {id: map, tasks: [{output: 1MB, pin: 1}]}
          - {id: reduce, after: map, tasks: [{pin: 0}]}
  scheduler: pushbox
`

func TestRun(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sweep.yaml")
	if err := os.WriteFile(file, []byte(sweep), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(&out, file, 1, []string{"scheduler.params.m=2"}, []string{"scheduler.params.ablate=W"}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"base: jobs with a task refused by the not-hinder test 0, hindering 0, admitted by the wildcard 1, denied the wildcard 0",
		"variant: jobs with a task refused by the not-hinder test 0, hindering 0, admitted by the wildcard 0, denied the wildcard 1",
		"estimates equal",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	// S alone is in the <10MB bin (L moves 10 MiB, the 10-100MB bin).
	if !strings.Contains(text, "+400.0%") {
		t.Errorf("S's JCT change (1 s -> 5 s, +400%%) missing:\n%s", text)
	}
}
