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
