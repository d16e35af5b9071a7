package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The Slurm job array of docs/scale-out.md, run as written on a real
// (one-node) Slurm cluster: the shards, the dependent merge and report, and
// a merged results.csv equal to a local run's. scripts/slurm-local.sh sets
// the cluster up (CI runs it); elsewhere the test skips.
func TestSlurmArraySweep(t *testing.T) {
	if _, err := exec.LookPath("sbatch"); err != nil {
		t.Skip("Slurm is not installed here; scripts/slurm-local.sh sets up a one-node cluster (CI runs it)")
	}
	if out, err := exec.Command("sinfo", "-h", "-o", "%T").CombinedOutput(); err != nil || !regexp.MustCompile(`idle|mixed|allocated`).Match(out) {
		t.Skipf("Slurm has no node up (%v: %s); scripts/slurm-local.sh starts one", err, bytes.TrimSpace(out))
	}
	script, submit := slurmBlocks(t)

	work := t.TempDir()
	bin := filepath.Join(work, "bin")
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "netsched"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The sweep file at the path the script names, relative to the job's
	// working directory.
	sweepFile := filepath.Join("experiment", "catalog", "delay", "locality.yaml")
	src, err := os.ReadFile(filepath.Join("..", "..", sweepFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{sweepFile, src}, {"sweep.sbatch", []byte(script)}} {
		p := filepath.Join(work, f.name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(work, "logs"), 0o755)
	scratch := filepath.Join(work, "scratch")
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "SCRATCH="+scratch)

	cmd := exec.Command("bash", "-euc", submit)
	cmd.Dir, cmd.Env = work, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("submitting: %v\n%s", err, out)
	}
	jobs := regexp.MustCompile(`\d+`).FindAllString(string(out), -1) // the merge job's id (sbatch prints it)
	waitForSlurm(t, 3*time.Minute)

	merged, err := os.ReadFile(filepath.Join(scratch, "locality", "results.csv"))
	if err != nil {
		logs, _ := filepath.Glob(filepath.Join(work, "logs", "*"))
		t.Fatalf("no merged results (jobs %v): %v; logs %v", jobs, err, logs)
	}
	if _, err := os.Stat(filepath.Join(scratch, "locality", "report.html")); err != nil {
		t.Errorf("the dependent job wrote no report: %v", err)
	}
	local := exec.Command(filepath.Join(bin, "netsched"), "sweep", sweepFile, "--out", filepath.Join(work, "local"))
	local.Dir = work
	if out, err := local.CombinedOutput(); err != nil {
		t.Fatalf("local sweep: %v\n%s", err, out)
	}
	want, err := os.ReadFile(filepath.Join(work, "local", "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(merged, want) {
		t.Errorf("the merged Slurm results differ from a local run's")
	}
}

// slurmBlocks returns the two bash blocks of docs/scale-out.md's Slurm
// section: the batch script and the commands that submit it and the merge.
func slurmBlocks(t *testing.T) (script, submit string) {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "scale-out.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "## Slurm")
	if !ok {
		t.Fatal("docs/scale-out.md has no Slurm section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	blocks := regexp.MustCompile("(?s)```bash\n(.*?)```").FindAllStringSubmatch(section, -1)
	if len(blocks) < 2 {
		t.Fatalf("the Slurm section has %d bash blocks, want the script and the submission", len(blocks))
	}
	return blocks[0][1], blocks[1][1]
}

// waitForSlurm waits until the queue is empty.
func waitForSlurm(t *testing.T, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		out, err := exec.Command("squeue", "-h").Output()
		if err == nil && len(bytes.TrimSpace(out)) == 0 {
			return
		}
		time.Sleep(time.Second)
	}
	t.Fatalf("Slurm jobs still queued after %v", limit)
}
