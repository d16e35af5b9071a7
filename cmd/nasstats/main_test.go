package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The CR-RTS case of sched/nas (crrtsDoc in rts_test.go) as a sweep's base,
// with cr_rts: false as the variant: the base counts one light reducer and
// H's delayed reducer; the variant has no CR-RTS activation, and H (heavy,
// touched) starts its reducer at 5 s instead of after the congestion.
const sweep = `
name: nasstats-test
base:
  cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 4, nic: 100MB/s}
  network: {topology: two-tier, rack_uplink: 10MB/s, rack_downlink: 10MB/s, monitor: {interval: 1s, window: 1s}}
  engine: {heartbeat: 1s}
  workload:
    jobs:
      - id: B
        user: u0
        stages:
          - {id: map, tasks: [{compute: 0s, output: 200MB, pin: 0}, {compute: 0s, output: 200MB, pin: 1}]}
          - {id: reduce, after: map, tasks: [{compute: 1s, pin: 0}, {compute: 1s, pin: 1}]}
      - id: H
        user: u1
        arrival: 5s
        stages:
          - {id: map, tasks: [{compute: 0s, output: 200MB, pin: 0}]}
          - {id: reduce, after: map, tasks: [{compute: 1s}]}
      - id: L
        user: u1
        arrival: 5s
        stages:
          - {id: map, tasks: [{compute: 0s, output: 0.5MB, pin: 0}]}
          - {id: reduce, after: map, tasks: [{compute: 1s}]}
  scheduler: nas
`

func TestRun(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sweep.yaml")
	if err := os.WriteFile(file, []byte(sweep), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(&out, file, 1, nil, []string{"scheduler.params.cr_rts=false"}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"base: 3 jobs",
		"light reducers 1,",
		"CR-RTS: 0 reduce requests while congested",
		"CR-RTS delayed its reducer",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}
