package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// coflowTrace is two coflows on 4 ports (1 MiB flows; see coflow's
// TestMADDTwoCoflows for the schedule).
const coflowTrace = "4 2\nA 0 1 0 1 2:4\nB 0 2 0 1 2 3:2 1:4\n"

func writeTrace(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "trace.txt")
	if err := os.WriteFile(path, []byte(coflowTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The replay resolves --policy through the registry: a shorthand is varys
// with that order, and gives the same CCTs as naming varys with --param.
func TestCoflowPolicyFromRegistry(t *testing.T) {
	tr := writeTrace(t)
	dir := t.TempDir()
	if _, err := execute(t, "coflow", tr, "--policy", "scf", "--out", filepath.Join(dir, "scf")); err != nil {
		t.Fatal(err)
	}
	out, err := execute(t, "coflow", tr, "--policy", "varys", "--param", "order=scf", "--out", filepath.Join(dir, "varys"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "policy varys (order=scf):") {
		t.Errorf("table does not name the policy and its parameters:\n%s", out)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "scf", "coflows.csv"))
	b, _ := os.ReadFile(filepath.Join(dir, "varys", "coflows.csv"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("--policy scf and --policy varys --param order=scf differ:\n%s\n%s", a, b)
	}
	sum, _ := os.ReadFile(filepath.Join(dir, "varys", "summary.json"))
	if !strings.Contains(string(sum), `"policy": "varys"`) || !strings.Contains(string(sum), `"order": "scf"`) {
		t.Errorf("summary.json does not record the policy and its parameters:\n%s", sum)
	}
}

func TestCoflowPolicyErrors(t *testing.T) {
	tr := writeTrace(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		// A registered policy that classes flows by task state cannot replay.
		{[]string{"--policy", "test-policy"}, "network policy test-policy sets priority classes from task state"},
		{[]string{"--policy", "srpt"}, `unknown policy "srpt" (want one of fair, fifo, scf, ncf, lcf, sebf, aalo, varys`},
		{[]string{"--policy", "sebf", "--param", "order=fifo"}, "policy sebf is varys with order sebf"},
		{[]string{"--policy", "varys", "--param", "order=srpt"}, "network policy varys: parameter order: got srpt, expected one of sebf, fifo, scf, ncf, lcf"},
		{[]string{"--policy", "aalo", "--param", "multiplier=1"}, "network policy aalo: parameter multiplier: got 1, expected a number > 1"},
		{[]string{"--policy", "sebf", "--aalo-weighted"}, "--aalo-weighted is a parameter of --policy aalo, not of sebf"},
		{[]string{"--policy", "aalo", "--param", "queues"}, `--param: option "queues": expected key=value`},
	} {
		_, err := execute(t, append([]string{"coflow", tr}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
}

// `netsched schedulers` lists the coflow policies with their parameters.
func TestSchedulersListsCoflowPolicies(t *testing.T) {
	out, err := execute(t, "schedulers")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(out, "\nnetwork policies")
	if i < 0 {
		t.Fatalf("no network policies section:\n%s", out)
	}
	for _, want := range []string{"varys ", "order (default sebf)", "aalo ", "queues (default 10)", "first_limit (default", "multiplier (default 10)", "weighted (default false)"} {
		if !strings.Contains(out[i:], want) {
			t.Errorf("network policies section lacks %q:\n%s", want, out[i:])
		}
	}
}

// The CoflowSim approximations reach the replay and summary.json records
// them; without them summary.json has none of their keys.
func TestCoflowApproximationFlags(t *testing.T) {
	tr := writeTrace(t)
	dir := t.TempDir()
	if _, err := execute(t, "coflow", tr, "--policy", "aalo", "--port-speed", "1MiB/s", "--out", filepath.Join(dir, "exact")); err != nil {
		t.Fatal(err)
	}
	if _, err := execute(t, "coflow", tr, "--policy", "aalo", "--port-speed", "1MiB/s", "--out", filepath.Join(dir, "approx"),
		"--merge-rack-flows", "--min-flow", "1MiB", "--round-flows", "1MiB", "--same-port-flows", "--time-step", "8ms"); err != nil {
		t.Fatal(err)
	}
	exact, _ := os.ReadFile(filepath.Join(dir, "exact", "summary.json"))
	approx, _ := os.ReadFile(filepath.Join(dir, "approx", "summary.json"))
	keys := []string{`"merge_rack_flows": true`, `"min_flow": 1048576`, `"round_flows": 1048576`, `"same_port_flows": true`, `"time_step": 0.008`}
	for _, k := range keys {
		if !strings.Contains(string(approx), k) {
			t.Errorf("summary.json lacks %s:\n%s", k, approx)
		}
		if key, _, _ := strings.Cut(k, ":"); strings.Contains(string(exact), key) {
			t.Errorf("summary.json of the exact model has %s:\n%s", key, exact)
		}
	}
	// B's 1->1 share (4 MiB / 2 mappers) becomes a flow: 5 flows, not 4.
	if !strings.Contains(string(approx), `"flows": 5`) || !strings.Contains(string(exact), `"flows": 4`) {
		t.Errorf("flow counts: exact\n%s\napprox\n%s", exact, approx)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--min-flow", "-1MiB"}, "min flow -1.048576e+06 must be finite and >= 0"},
		{[]string{"--round-flows", "1 parsec"}, "--round-flows:"},
		{[]string{"--time-step", "soon"}, "--time-step:"},
		{[]string{"--time-step", "-8ms"}, "time step -0.008 must be finite and >= 0"},
		{[]string{"--aalo-no-backfill"}, "--aalo-no-backfill is a parameter of --policy aalo, not of fair"},
		{[]string{"--aalo-requeue-at-events"}, "--aalo-requeue-at-events is a parameter of --policy aalo, not of fair"},
	} {
		_, err := execute(t, append([]string{"coflow", tr, "--policy", "fair"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
}
