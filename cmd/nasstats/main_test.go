package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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
	if err := run(&out, file, 1, nil, []string{"scheduler.params.cr_rts=false"}, options{perJob: true}); err != nil {
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

// -every: the base's counters per period; the periods' map requests add up
// to the run's, and without per-job counters the table by class is left
// out.
func TestSeries(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sweep.yaml")
	if err := os.WriteFile(file, []byte(sweep), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(&out, file, 1, nil, nil, options{every: 2}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if strings.Contains(text, "CR-RTS delayed its reducer") || !strings.Contains(text, "map requests") {
		t.Fatalf("want the series and no per-job table:\n%s", text)
	}
	total, sum := -1, 0
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) > 3 && f[0] == "MTS:" {
			fmt.Sscan(f[1], &total)
		}
		// until, taken, by maps, by early reducers, "job:" n, done, map requests
		if len(f) > 7 && strings.HasSuffix(f[0], "s") && f[0] != "until" {
			var n int
			if _, err := fmt.Sscan(f[7], &n); err == nil {
				sum += n
			}
			if used, _ := strconv.Atoi(f[1]); used < 0 || used > 4 {
				t.Errorf("%s: %d containers taken of the cluster's 4", f[0], used)
			}
		}
	}
	if total <= 0 || sum != total {
		t.Fatalf("the periods' map requests add up to %d, the run's are %d:\n%s", sum, total, text)
	}
}
