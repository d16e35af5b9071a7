package sim_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
)

// FuzzRun fuzzes the whole path: any bytes that load as a small scenario
// (at most 16 machines, 500 tasks, explicit jobs) must run in check mode to
// an end — a result or an error, never a panic, a hang or a failed
// invariant (an error wrapping sched.ErrCheck). The seeds are the inline
// scenarios of testdata/fuzz-seeds and scenario/testdata/*.yaml; the
// corpus the fuzzer finds lives in testdata/fuzz/FuzzRun.
func FuzzRun(f *testing.F) {
	for _, dir := range []string{filepath.Join("testdata", "fuzz-seeds"), filepath.Join("..", "scenario", "testdata")} {
		seeds, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, s := range seeds {
			if data, err := os.ReadFile(s); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scenario.Parse("fuzz.yaml", data, ".")
		if err != nil || !small(sc) {
			return
		}
		sc.Check = true
		sc.Output.Tasks, sc.Output.Timeline = true, true
		res, err := sim.Run(sc)
		if errors.Is(err, sched.ErrCheck) {
			t.Fatalf("an invariant failed: %v", err)
		}
		if err != nil {
			return // an input the run rejects
		}
		if _, err := res.Files(); err != nil {
			t.Fatalf("a finished run's files: %v", err)
		}
	})
}

// small bounds a fuzzed scenario's cost so each input runs in milliseconds.
func small(sc *scenario.Scenario) bool {
	if len(sc.Machines) > 16 || len(sc.File.Workload.Jobs) == 0 {
		return false
	}
	tasks := 0
	for _, j := range sc.File.Workload.Jobs {
		for _, st := range j.Stages {
			tasks += len(st.Tasks) + st.Count
		}
	}
	return tasks <= 500
}
