package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/sched"
)

// execute runs the CLI in-process and returns its stdout and error.
func execute(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

func TestRunQuickstartReportsJobA(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	out, err := execute(t, "run", "../../examples/quickstart.yaml", "--out", dir, "--check")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "job A: arrival 0s, finish 7s, JCT 7s") {
		t.Fatalf("output does not report job A's 7s completion:\n%s", out)
	}
	for _, f := range []string{"summary.json", "jobs.csv", "timing.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
}

func TestInvalidScenarioWritesNothing(t *testing.T) {
	tmp := t.TempDir()
	bad := filepath.Join(tmp, "bad.yaml")
	os.WriteFile(bad, []byte("cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1MB/s}\nworkload:\n  jobs:\n    - id: A\n      stages: [{id: s, tasks: [{compute: -1s}]}]\nscheduler: fifo\n"), 0o644)
	dir := filepath.Join(tmp, "out")
	_, err := execute(t, "run", bad, "--out", dir)
	if err == nil || !strings.Contains(err.Error(), "bad.yaml:5:") {
		t.Fatalf("got %v, want an error naming bad.yaml and line 5", err)
	}
	if _, statErr := os.Stat(dir); !os.IsNotExist(statErr) {
		t.Fatalf("the output directory exists after a failed run")
	}
}

func TestSchedulersListsBaselines(t *testing.T) {
	out, err := execute(t, "schedulers")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fifo", "fair", "capacity", "delay"} {
		if !strings.Contains(out, name+" ") {
			t.Errorf("schedulers output lacks %s", name)
		}
	}
	// Network policies come in their own section, after the schedulers,
	// each with its description and parameters.
	i := strings.Index(out, "\nnetwork policies")
	if i < 0 || i < strings.Index(out, "fifo ") {
		t.Fatalf("schedulers output lacks a network policies section after the schedulers:\n%s", out)
	}
	nets := out[i:]
	for _, want := range []string{"test-policy ", "classes nothing (cmd tests only)", "level (default 0)", "the class of every flow"} {
		if !strings.Contains(nets, want) {
			t.Errorf("network policies section lacks %q:\n%s", want, nets)
		}
	}
	help, err := execute(t, "schedulers", "--help")
	if err != nil || !strings.Contains(help, "scheduler: {name: fair, network: <policy>}") {
		t.Errorf("schedulers --help does not show how to combine a scheduler with a network policy (%v):\n%s", err, help)
	}
}

// testPolicy is a network policy registered for the schedulers listing.
type testPolicy struct{ level int }

func (p testPolicy) FlowClass(sched.View, sched.Task, int) int { return p.level }

func init() {
	type config struct {
		Level int `param:"level" min:"0" help:"the class of every flow"`
	}
	sched.RegisterNetwork(sched.DefineNetwork("test-policy", "classes nothing (cmd tests only)", config{},
		func(c config) (sched.NetworkPolicy, error) { return testPolicy{c.Level}, nil }))
}

func TestCLIBounds(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--seeds", "0"}, "--seeds 0: expected at least 1 run per scheduler"},
		{[]string{"compare", "--workers", "0"}, "--workers 0: expected at least 1"},
		{[]string{"sweep", "x.yaml", "--workers", "-2"}, "--workers -2: expected at least 1"},
	} {
		root := newRootCmd()
		root.SetArgs(c.args)
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		if err := root.Execute(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
}

// The profiles are written and readable by pprof's parser (gzip-compressed
// protocol buffers); a bad path fails the command before the run.
func TestProfileFlags(t *testing.T) {
	tmp := t.TempDir()
	cpu, mem := filepath.Join(tmp, "cpu.prof"), filepath.Join(tmp, "mem.prof")
	if _, err := execute(t, "run", "../../examples/quickstart.yaml", "--out", filepath.Join(tmp, "out"), "--cpuprofile", cpu, "--memprofile", mem); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{cpu, mem} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
			t.Errorf("%s is not a gzip-compressed profile (%d bytes)", p, len(b))
		}
	}
	_, err := execute(t, "run", "../../examples/quickstart.yaml", "--out", filepath.Join(tmp, "out2"), "--memprofile", filepath.Join(tmp, "missing", "m.prof"))
	if err == nil || !strings.Contains(err.Error(), "--memprofile") {
		t.Fatalf("got %v, want an error naming --memprofile", err)
	}
	if _, statErr := os.Stat(filepath.Join(tmp, "out2")); !os.IsNotExist(statErr) {
		t.Fatal("the run went ahead despite the bad profile path")
	}
}

// --memory-limit takes a human size and refuses what is not one.
func TestMemoryLimitFlag(t *testing.T) {
	tmp := t.TempDir()
	if _, err := execute(t, "run", "../../examples/quickstart.yaml", "--out", filepath.Join(tmp, "out"), "--memory-limit", "2GB"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"lots", "10B", "NaNGB", "5PB"} {
		_, err := execute(t, "run", "../../examples/quickstart.yaml", "--out", filepath.Join(tmp, "bad"), "--memory-limit", bad)
		if err == nil || !strings.Contains(err.Error(), "--memory-limit") {
			t.Errorf("--memory-limit %s: got %v, want an error naming the flag", bad, err)
		}
	}
}

// An empty --out would fall back to the default directory (or write into
// the working directory): every command rejects it before doing anything.
func TestEmptyOutRejected(t *testing.T) {
	for _, args := range [][]string{
		{"run", "../../examples/quickstart.yaml", "--out", ""},
		{"compare", "../../examples/quickstart.yaml", "--out", " "},
		{"coflow", "nothing.txt", "--out", ""},
		{"sweep", "nothing.yaml", "--out", ""},
		{"merge", "a", "--out", ""},
		{"report", "a", "--out", ""},
		{"reproduce", "x", "--out", ""},
		{"validate", "x", "--out", ""},
	} {
		_, err := execute(t, args...)
		if err == nil || !strings.Contains(err.Error(), `--out: expected a path, got an empty string`) {
			t.Errorf("%v: got %v", args, err)
		}
	}
}
