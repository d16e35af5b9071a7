package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/netsched/netsched/trace/calibrate"
)

// swimRun runs the SWIM test trace with the given importer options and
// returns the run directory.
func swimRun(t *testing.T, dir, options string) string {
	t.Helper()
	trace, err := filepath.Abs("../../trace/swim/testdata/small.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	sc := filepath.Join(dir, "swim.yaml")
	yaml := fmt.Sprintf(`cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 2, nic: 1Gbps}
network: {topology: two-tier, oversubscription: 4}
workload:
  trace: %s
  format: swim
  %s
scheduler: fair
output: {tasks: true}
`, trace, options)
	if err := os.WriteFile(sc, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	if _, err := execute(t, "run", sc, "--out", out, "--force"); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCalibrateRecoversSwimOptions fits netsched's own tasks.csv from a
// SWIM run with known compute options: the fit must give them back (to
// rounding), and the printed options line, fed to a second run, must
// reproduce itself.
func TestCalibrateRecoversSwimOptions(t *testing.T) {
	dir := t.TempDir()
	const opts = "options: {map_rate: 40MB/s, map_overhead: 2.5s, reduce_rate: 15MB/s, reduce_overhead: 0.75s}"
	run := swimRun(t, dir, opts)

	var fit calibrate.Fitter
	if _, _, err := calibrate.ReadFile(filepath.Join(run, "tasks.csv"), &fit); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]float64{"map": {2.5, 40e6}, "reduce": {0.75, 15e6}}
	fits := fit.Fits()
	if len(fits) != 2 {
		t.Fatalf("fits %+v, want map and reduce", fits)
	}
	for _, f := range fits {
		w := want[f.Kind]
		if math.Abs(f.Overhead-w[0]) > 1e-9 || math.Abs(f.Rate-w[1]) > 1e-6*w[1] || f.R2 < 1-1e-9 || f.Note != "" {
			t.Errorf("%s: %+v, want overhead %g and rate %g exactly", f.Kind, f, w[0], w[1])
		}
	}

	out, err := execute(t, "calibrate", run)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "  "+opts+"\n") {
		t.Fatalf("output lacks %q:\n%s", opts, out)
	}
	line := regexp.MustCompile(`(?m)^  (options: .*)$`).FindStringSubmatch(out)[1]
	again, err := execute(t, "calibrate", swimRun(t, filepath.Join(dir, "again"), line))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(again, "  "+line+"\n") {
		t.Fatalf("the options line does not reproduce itself:\n%s", again)
	}
}

func TestCalibrateGenericAndErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	if err := os.WriteFile(good, []byte("kind,bytes,seconds\nmap,0,1s\nmap,100MB,2s\nreduce,5MB,3s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := execute(t, "calibrate", good)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"good.csv: 3 tasks (kind,bytes,seconds)",
		"reduce: one task: overhead and rate cannot be separated",
		"  options: {map_rate: 100MB/s, map_overhead: 1s}\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("kind,bytes,seconds\nmap,1MB,1s\nmap,1MB,fast\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = execute(t, "calibrate", good, bad)
	if want := bad + `:3: seconds: "fast", expected a duration >= 0 such as 12.5 or 1.5s`; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}
