package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const head = "job_id,user,queue,arrival,start,finish,jct,tasks\n"

func TestCompare(t *testing.T) {
	dir := t.TempDir()
	// A: four finished jobs, one unfinished. B: job3 is 10% faster, job1 20%
	// slower, job2 and job4 unchanged, job5 only in B, job0 only in A.
	a := writeFile(t, dir, "a/jobs.csv", head+
		"job0,u,default,0,0,2,2,1\n"+
		"job1,u,default,0,0,10,10,1\n"+
		"job2,u,default,1,1,5,4,1\n"+
		"job3,u,default,2,2,22,20,1\n"+
		"job4,u,default,3,3,8,5,1\n"+
		"job9,u,default,3,3,,,1\n")
	b := writeFile(t, dir, "b/jobs.csv", head+
		"job1,u,default,0,0,12,12,1\n"+
		"job2,u,default,1,1,5,4,1\n"+
		"job3,u,default,2,2,20,18,1\n"+
		"job4,u,default,3,3,8,5,1\n"+
		"job5,u,default,4,4,30,26,1\n")
	ja, err := readJobs(filepath.Dir(a)) // a run directory works too
	if err != nil {
		t.Fatal(err)
	}
	jb, err := readJobs(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(ja) != 5 || len(jb) != 5 {
		t.Fatalf("read %d and %d finished jobs, want 5 and 5", len(ja), len(jb))
	}
	d := compare(ja, jb)
	if d.matched != 4 || d.onlyA != 1 || d.onlyB != 1 {
		t.Errorf("matched %d, only A %d, only B %d; want 4, 1, 1", d.matched, d.onlyA, d.onlyB)
	}
	// relative errors: 0.2, 0, 0.1, 0
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	near("mean rel err", d.relErr.Mean, 0.075)
	near("p50 rel err", d.relErr.P50, 0)   // nearest rank: 2nd of 0, 0, 0.1, 0.2
	near("p95 rel err", d.relErr.P95, 0.2) // 4th
	near("max rel err", d.relErr.Max, 0.2)
	near("signed mean", d.signedMean, (0.2-0.1)/4)
	near("mean JCT A", d.a.meanJCT, (2+10+4+20+5)/5.0)
	near("mean JCT B", d.b.meanJCT, (12+4+18+5+26)/5.0)
	near("makespan A", d.a.makespan, 22)
	near("makespan B", d.b.makespan, 30)
	if d.worst[0].id != "job1" || d.worst[1].id != "job3" {
		t.Errorf("worst jobs %v, want job1 then job3", d.worst[:2])
	}
	var out strings.Builder
	if err := write(&out, d, 2); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"matched 4, only in A 1, only in B 1",
		"mean 7.5%", "p95 20%", "max 20%",
		"makespan",
		"+36.4%", // makespan 22 -> 30
		"job1",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"nocol.csv": "job_id,arrival,finish\njob0,0,1\n",
		"nan.csv":   head + "job0,u,default,0,0,x,1,1\n",
		"dup.csv":   head + "job0,u,default,0,0,1,1,1\njob0,u,default,0,0,1,1,1\n",
	} {
		if _, err := readJobs(writeFile(t, dir, name, body)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := readJobs(filepath.Join(dir, "missing.csv")); err == nil {
		t.Error("missing file: no error")
	}
}
