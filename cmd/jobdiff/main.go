// Command jobdiff compares two runs job by job: the jobs.csv of a reference
// run (A, e.g. the exact network model) and of another run of the same
// workload (B, e.g. with network.granularity set). Jobs are matched by
// job_id. It prints the distribution of the per-job JCT relative error
// |JCT_B - JCT_A| / JCT_A (mean, p50, p95, p99, max, with the signed mean),
// and the relative differences (B - A) / A of the mean JCT, the p95 JCT and
// the makespan (last finish - first arrival, as in summary.json).
//
// Usage:
//
//	jobdiff [-top N] A B
//
// A and B are jobs.csv files or run directories holding one. Jobs present
// in only one run are counted and left out of the per-job distribution; the
// aggregate figures use every job of each run. -top N also lists the N jobs
// with the largest relative error. Percentiles are nearest-rank, as in
// summary.json. The exit status is 1 on an error, 0 otherwise (the tool
// measures a difference, it does not judge it).
package main

import (
	"cmp"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/netsched/netsched/metrics"
)

func main() {
	top := flag.Int("top", 0, "also list the N jobs with the largest JCT relative error")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: jobdiff [-top N] A/jobs.csv B/jobs.csv   (A is the reference)")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	a, err := readJobs(flag.Arg(0))
	if err == nil {
		var b []job
		if b, err = readJobs(flag.Arg(1)); err == nil {
			err = write(os.Stdout, compare(a, b), *top)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "jobdiff:", err)
		os.Exit(1)
	}
}

// job is one row of jobs.csv: what the comparison needs.
type job struct {
	id              string
	arrival, finish float64
	jct             float64
}

// readJobs reads a jobs.csv (or DIR/jobs.csv). Jobs that did not finish
// (empty finish or jct) are left out.
func readJobs(path string) ([]job, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "jobs.csv")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, need := range []string{"job_id", "arrival", "finish", "jct"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("%s: no %q column (not a jobs.csv?)", path, need)
		}
	}
	var js []job
	seen := map[string]bool{}
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		j := job{id: rec[col["job_id"]]}
		if seen[j.id] {
			return nil, fmt.Errorf("%s:%d: job %q appears twice", path, line, j.id)
		}
		seen[j.id] = true
		if rec[col["finish"]] == "" || rec[col["jct"]] == "" {
			continue // unfinished
		}
		for _, c := range []struct {
			name string
			v    *float64
		}{{"arrival", &j.arrival}, {"finish", &j.finish}, {"jct", &j.jct}} {
			if *c.v, err = strconv.ParseFloat(rec[col[c.name]], 64); err != nil || math.IsNaN(*c.v) || math.IsInf(*c.v, 0) {
				return nil, fmt.Errorf("%s:%d: %s = %q is not a number", path, line, c.name, rec[col[c.name]])
			}
		}
		js = append(js, j)
	}
	return js, nil
}

// diff is the comparison of run B against the reference run A.
type diff struct {
	jobsA, jobsB, matched int
	onlyA, onlyB          int
	zeroA                 int // matched jobs with JCT 0 in A (no relative error)
	relErr                metrics.Stats
	signedMean            float64 // mean of (JCT_B - JCT_A) / JCT_A
	worst                 []jobErr
	a, b                  runStats
}

type jobErr struct {
	id      string
	ja, jb  float64
	rel     float64 // |jb - ja| / ja
	signedR float64
}

type runStats struct {
	meanJCT, p95JCT, makespan float64
}

func summarize(js []job) runStats {
	if len(js) == 0 {
		return runStats{}
	}
	jcts := make([]float64, len(js))
	first, last := math.Inf(1), math.Inf(-1)
	for i, j := range js {
		jcts[i] = j.jct
		first = min(first, j.arrival)
		last = max(last, j.finish)
	}
	s := metrics.Summarize(jcts)
	return runStats{meanJCT: s.Mean, p95JCT: s.P95, makespan: last - first}
}

func compare(a, b []job) diff {
	d := diff{jobsA: len(a), jobsB: len(b), a: summarize(a), b: summarize(b)}
	byID := make(map[string]job, len(a))
	for _, j := range a {
		byID[j.id] = j
	}
	var rels []float64
	sum := 0.0
	for _, jb := range b {
		ja, ok := byID[jb.id]
		if !ok {
			d.onlyB++
			continue
		}
		delete(byID, jb.id)
		d.matched++
		if ja.jct == 0 {
			d.zeroA++
			continue
		}
		s := (jb.jct - ja.jct) / ja.jct
		rels = append(rels, math.Abs(s))
		sum += s
		d.worst = append(d.worst, jobErr{id: jb.id, ja: ja.jct, jb: jb.jct, rel: math.Abs(s), signedR: s})
	}
	d.onlyA = len(byID)
	d.relErr = metrics.Summarize(rels)
	if len(rels) > 0 {
		d.signedMean = sum / float64(len(rels))
	}
	slices.SortStableFunc(d.worst, func(x, y jobErr) int { return cmp.Compare(y.rel, x.rel) })
	return d
}

// rel is (b - a) / a, or NaN when a is 0.
func rel(a, b float64) float64 {
	if a == 0 {
		return math.NaN()
	}
	return (b - a) / a
}

func write(w io.Writer, d diff, top int) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("jobs: A %d, B %d, matched %d, only in A %d, only in B %d", d.jobsA, d.jobsB, d.matched, d.onlyA, d.onlyB)
	if d.zeroA > 0 {
		p(", JCT 0 in A (no relative error) %d", d.zeroA)
	}
	p("\n")
	e := d.relErr
	p("per-job JCT relative error |B-A|/A over %d jobs: mean %.3g%%  p50 %.3g%%  p95 %.3g%%  p99 %.3g%%  max %.3g%%  (signed mean %+.3g%%)\n",
		e.Count, 100*e.Mean, 100*e.P50, 100*e.P95, 100*e.P99, 100*e.Max, 100*d.signedMean)
	p("%-9s %14s %14s %10s\n", "", "A", "B", "(B-A)/A")
	for _, r := range []struct {
		name string
		a, b float64
	}{{"mean JCT", d.a.meanJCT, d.b.meanJCT}, {"p95 JCT", d.a.p95JCT, d.b.p95JCT}, {"makespan", d.a.makespan, d.b.makespan}} {
		p("%-9s %14.6g %14.6g %+9.3g%%\n", r.name, r.a, r.b, 100*rel(r.a, r.b))
	}
	if top > 0 && len(d.worst) > 0 {
		p("largest relative errors:\n")
		for _, x := range d.worst[:min(top, len(d.worst))] {
			p("  %-12s A %.6g s  B %.6g s  %+.3g%%\n", x.id, x.ja, x.jb, 100*x.signedR)
		}
	}
	return nil
}
