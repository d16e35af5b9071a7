package experiment

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// buildNetsched compiles the command into the test's temporary directory.
func buildNetsched(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot build netsched for the multi-process test")
	}
	bin := filepath.Join(t.TempDir(), "netsched")
	cmd := exec.Command(goBin, "build", "-o", bin, "./cmd/netsched")
	cmd.Dir = ".." // the repository root, from this package's directory
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/netsched: %v\n%s", err, out)
	}
	return bin
}

// batchVars are cleared from the children's environment so that only what
// a test sets decides their shard.
var batchVars = []string{"JOB_COMPLETION_INDEX", "NETSCHED_SHARDS", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN",
	"SLURM_ARRAY_TASK_COUNT", "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE"}

func netsched(bin string, env []string, args ...string) (string, error) {
	cmd := exec.Command(bin, args...)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(batchVars, name) {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// TestShardsAsProcessesMergeToTheSweep runs a sweep whole and as three
// shard processes at once, each finding its shard a different way (flag,
// Kubernetes, Slurm), and checks that merging the parts gives the same
// files byte for byte; then that merge refuses a repeated or missing shard.
func TestShardsAsProcessesMergeToTheSweep(t *testing.T) {
	bin := buildNetsched(t)
	tmp := t.TempDir()
	dir := func(name string) string { return filepath.Join(tmp, name) }
	if out, err := netsched(bin, nil, "sweep", "testdata/small.yaml", "--out", dir("whole")); err != nil {
		t.Fatalf("unsharded sweep: %v\n%s", err, out)
	}
	shards := []struct {
		env  []string
		args []string
	}{
		{nil, []string{"--shard", "0/3"}},
		{[]string{"JOB_COMPLETION_INDEX=1", "NETSCHED_SHARDS=3"}, nil},
		{[]string{"SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_COUNT=3"}, nil},
	}
	var wg sync.WaitGroup
	outs, errs := make([]string, 3), make([]error, 3)
	for i, s := range shards {
		wg.Go(func() {
			args := append([]string{"sweep", "testdata/small.yaml", "--out", dir(fmt.Sprint("shard", i)), "--workers", "1"}, s.args...)
			outs[i], errs[i] = netsched(bin, s.env, args...)
		})
	}
	wg.Wait()
	for i := range shards {
		if errs[i] != nil {
			t.Fatalf("shard %d: %v\n%s", i, errs[i], outs[i])
		}
		want := fmt.Sprintf("shard %d/3: ", i)
		if !strings.Contains(outs[i], want) {
			t.Errorf("shard %d printed %q, want it to say %q", i, outs[i], want)
		}
	}
	if out, err := netsched(bin, nil, "merge", dir("shard0"), dir("shard1"), dir("shard2"), "--out", dir("merged")); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	sameFiles(t, dir("whole"), dir("merged"), topFiles...)

	out, err := netsched(bin, nil, "merge", dir("shard0"), dir("shard1"), dir("shard2"), dir("shard1"), "--out", dir("twice"))
	if err == nil || !strings.Contains(out, "duplicate shard 1/3") {
		t.Errorf("merging shard 1 twice: %v\n%s", err, out)
	}
	out, err = netsched(bin, nil, "merge", dir("shard0"), dir("shard2"), "--out", dir("missing"))
	if err == nil || !strings.Contains(out, "missing shard(s) 1; missing 3 cell(s): 1, 4, 7") {
		t.Errorf("merging without shard 1: %v\n%s", err, out)
	}
}
