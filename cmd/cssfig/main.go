// Command cssfig computes the CSS paper's figures (Fig. 4a-d, 5, 6) from
// the per-cell files of a sweep, compare or reproduce output directory:
// each cell's stages.csv (per stage: start, finish, CCT, input wait) and
// jobs.csv. It prints Markdown tables; the figures' measures are:
//
//   - map phase (Fig. 4a): the CCT of the stage named "map";
//   - reduce phase (Fig. 4b): the CCT of the stage named "reduce";
//   - reducer waiting (Fig. 4c): the reduce stage's mean input-phase time
//     per task (fetching and waiting for map output);
//   - JCT (Fig. 4d, and Fig. 5's CCT for single-stage jobs, where the
//     paper counts a job's whole time as its cotask's): jobs.csv's jct;
//   - "under" (Fig. 5): the share of jobs with a JCT at most -under.
//
// Usage:
//
//	cssfig [-baseline LABEL] [-under 1000] [-jobs] DIR
//
// Cells are grouped by grid point and scheduler label; a group's value is
// the mean over its seeds (± the sample standard deviation when there are
// several). With -jobs, each job is listed by id, the mean over the seeds
// of the runs that have it (Fig. 4's per-job bars). With -baseline, each group also gets its change relative
// to that scheduler at the same grid point.
package main

import (
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
	"strings"

	"github.com/netsched/netsched/experiment"
)

func main() {
	baseline := flag.String("baseline", "", "scheduler label to compare every group with at the same grid point")
	under := flag.Float64("under", 1000, "seconds: Fig. 5's threshold for the share of jobs done within it")
	jobs := flag.Bool("jobs", false, "also list each job by id, mean over seeds: Fig. 4's per-job bars")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: cssfig [-baseline LABEL] [-under SECONDS] [-jobs] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(os.Stdout, flag.Arg(0), *baseline, *under, *jobs); err != nil {
		fmt.Fprintln(os.Stderr, "cssfig:", err)
		os.Exit(1)
	}
}

// cell is one line of cells.jsonl.
type cell struct {
	ID        string            `json:"id"`
	Params    map[string]string `json:"params"`
	Scheduler string            `json:"scheduler"`
	Seed      uint64            `json:"seed"`
}

// jobFig is one job's figure values.
type jobFig struct {
	ID                        string
	Map, Reduce, Wait, JCT    float64 // NaN when the job has no such stage
	hasMap, hasReduce, hasJCT bool
}

// cellFig is one run's values: means over its jobs.
type cellFig struct {
	Jobs                   []jobFig
	Map, Reduce, Wait, JCT float64
	Under                  float64 // share of jobs with JCT <= under
}

func run(w io.Writer, dir, baseline string, under float64, perJob bool) error {
	cells, err := readCells(filepath.Join(dir, "cells.jsonl"))
	if err != nil {
		return err
	}
	type group struct {
		point string
		label string
		figs  []cellFig
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, c := range cells {
		f, err := readCell(filepath.Join(dir, "cells", c.ID), under)
		if err != nil {
			return fmt.Errorf("cell %s: %w", c.ID, err)
		}
		point := pointOf(c.Params)
		key := point + "\x00" + c.Scheduler
		g := byKey[key]
		if g == nil {
			g = &group{point: point, label: c.Scheduler}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.figs = append(g.figs, f)
	}
	fmt.Fprintf(w, "| grid point | scheduler | runs | map phase (s) | reduce phase (s) | reducer wait (s) | JCT (s) | JCT <= %gs |\n", under)
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, g := range groups {
		col := func(get func(cellFig) float64) string {
			var xs []float64
			for _, f := range g.figs {
				xs = append(xs, get(f))
			}
			s := stat(xs)
			if base := byKey[g.point+"\x00"+baseline]; base != nil && base != g && !math.IsNaN(s.mean) {
				var bs []float64
				for _, f := range base.figs {
					bs = append(bs, get(f))
				}
				if b := stat(bs).mean; b > 0 {
					return fmt.Sprintf("%s (%+.1f%%)", s, 100*(s.mean/b-1))
				}
			}
			return s.String()
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s | %s |\n", orDash(g.point), g.label, len(g.figs),
			col(func(f cellFig) float64 { return f.Map }), col(func(f cellFig) float64 { return f.Reduce }),
			col(func(f cellFig) float64 { return f.Wait }), col(func(f cellFig) float64 { return f.JCT }),
			col(func(f cellFig) float64 { return f.Under }))
	}
	if !perJob {
		return nil
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| grid point | scheduler | job | map phase (s) | reduce phase (s) | reducer wait (s) | JCT (s) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, g := range groups {
		// Jobs by id over the seeds, in the order the first run lists them.
		var ids []string
		byID := map[string][]jobFig{}
		for _, f := range g.figs {
			for _, j := range f.Jobs {
				if byID[j.ID] == nil {
					ids = append(ids, j.ID)
				}
				byID[j.ID] = append(byID[j.ID], j)
			}
		}
		slices.Sort(ids)
		for _, id := range ids {
			col := func(get func(jobFig) float64) string {
				var xs []float64
				for _, j := range byID[id] {
					xs = append(xs, get(j))
				}
				return stat(xs).String()
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", orDash(g.point), g.label, id,
				col(func(j jobFig) float64 { return j.Map }), col(func(j jobFig) float64 { return j.Reduce }),
				col(func(j jobFig) float64 { return j.Wait }), col(func(j jobFig) float64 { return j.JCT }))
		}
	}
	return nil
}

// pointOf names a grid point: its keys sorted, "k=v" joined by commas.
func pointOf(params map[string]string) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		if params[k] != "" {
			parts = append(parts, k+"="+params[k])
		}
	}
	return strings.Join(parts, ", ")
}

func readCells(path string) ([]cell, error) {
	out, err := experiment.ReadCells[cell](path)
	if err == nil && len(out) == 0 {
		err = errors.New(path + ": no cells")
	}
	return out, err
}

// readCell computes one run's figure values from its stages.csv and
// jobs.csv.
func readCell(dir string, under float64) (cellFig, error) {
	stages, err := readCSV(filepath.Join(dir, "stages.csv"), "job_id", "stage", "cct", "input_wait")
	if err != nil {
		return cellFig{}, err
	}
	jobs, err := readCSV(filepath.Join(dir, "jobs.csv"), "job_id", "jct")
	if err != nil {
		return cellFig{}, err
	}
	var f cellFig
	index := map[string]int{}
	get := func(id string) *jobFig {
		i, ok := index[id]
		if !ok {
			i = len(f.Jobs)
			index[id] = i
			f.Jobs = append(f.Jobs, jobFig{ID: id, Map: math.NaN(), Reduce: math.NaN(), Wait: math.NaN(), JCT: math.NaN()})
		}
		return &f.Jobs[i]
	}
	for _, r := range jobs {
		j := get(r["job_id"])
		if j.JCT, err = strconv.ParseFloat(r["jct"], 64); err != nil {
			return f, fmt.Errorf("jobs.csv: job %s: jct: %w", r["job_id"], err)
		}
		j.hasJCT = true
	}
	for _, r := range stages {
		j := get(r["job_id"])
		cct, err1 := strconv.ParseFloat(r["cct"], 64)
		wait, err2 := strconv.ParseFloat(r["input_wait"], 64)
		if err := errors.Join(err1, err2); err != nil {
			return f, fmt.Errorf("stages.csv: %s/%s: %w", r["job_id"], r["stage"], err)
		}
		switch r["stage"] {
		case "map":
			j.Map, j.hasMap = cct, true
		case "reduce":
			j.Reduce, j.Wait, j.hasReduce = cct, wait, true
		}
	}
	var maps, reduces, waits, jct []float64
	done := 0
	for _, j := range f.Jobs {
		if j.hasMap {
			maps = append(maps, j.Map)
		}
		if j.hasReduce {
			reduces = append(reduces, j.Reduce)
			waits = append(waits, j.Wait)
		}
		if j.hasJCT {
			jct = append(jct, j.JCT)
			if j.JCT <= under {
				done++
			}
		}
	}
	f.Map, f.Reduce, f.Wait, f.JCT = mean(maps), mean(reduces), mean(waits), mean(jct)
	f.Under = math.NaN()
	if len(jct) > 0 {
		f.Under = float64(done) / float64(len(jct))
	}
	return f, nil
}

// readCSV reads a CSV file with a header into rows keyed by column,
// checking that the columns named exist.
func readCSV(path string, need ...string) ([]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty", path)
	}
	head := recs[0]
	for _, n := range need {
		if !slices.Contains(head, n) {
			return nil, fmt.Errorf("%s: no column %q", path, n)
		}
	}
	out := make([]map[string]string, 0, len(recs)-1)
	for _, r := range recs[1:] {
		m := make(map[string]string, len(head))
		for i, h := range head {
			if i < len(r) {
				m[h] = r[i]
			}
		}
		out = append(out, m)
	}
	return out, nil
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// summary is a mean over seeds and its sample standard deviation.
type summary struct {
	mean, sd float64
	n        int
}

func stat(xs []float64) summary {
	s := summary{mean: mean(xs), n: len(xs)}
	if len(xs) > 1 && !math.IsNaN(s.mean) {
		v := 0.0
		for _, x := range xs {
			v += (x - s.mean) * (x - s.mean)
		}
		s.sd = math.Sqrt(v / float64(len(xs)-1))
	}
	return s
}

func (s summary) String() string {
	if math.IsNaN(s.mean) {
		return "-"
	}
	if s.n > 1 {
		return fmt.Sprintf("%s ± %s", num(s.mean), num(s.sd))
	}
	return num(s.mean)
}

// num prints a value with 4 significant digits (fractions as they are).
func num(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
