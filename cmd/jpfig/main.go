// Command jpfig prints the JobPacker reproduction's tables from a sweep
// output directory (docs/reproductions/jobpacker.md): for every cell, the
// makespan, the share of cross-rack bytes that took the OCS, and the job
// completion times (p5, p25, p50, p75, p95) of all jobs, of the recurring
// jobs and of the ad-hoc jobs (Fig. 12 separates the two classes; jobs.csv
// does not record the class, so jpfig rebuilds each cell's workload from
// its scenario to read every job's recurring flag).
//
//	go run ./cmd/jpfig out/reproduce/jobpacker/mix
//
// Run it from the repository root: cells name their traces relative to it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	_ "github.com/netsched/netsched/trace/register"
)

func main() {
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: jpfig SWEEP_OUTPUT_DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := tables(os.Stdout, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "jpfig:", err)
		os.Exit(1)
	}
}

type cell struct {
	ID        string            `json:"id"`
	Params    map[string]string `json:"params"`
	Scheduler string            `json:"scheduler"`
	Seed      uint64            `json:"seed"`
	Scenario  json.RawMessage   `json:"scenario"`
}

// tables prints one row per cell.
func tables(w io.Writer, dir string) error {
	cells, err := readCells(filepath.Join(dir, "cells.jsonl"))
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "| scheduler | cell | makespan (s) | OCS share of cross-rack bytes | JCT all p5 / p25 / p50 / p75 / p95 (s) | recurring: jobs, p5 / p25 / p50 / p75 / p95 | ad-hoc: jobs, p5 / p25 / p50 / p75 / p95 |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, c := range cells {
		cd := filepath.Join(dir, "cells", c.ID)
		var sum metrics.Summary
		data, err := os.ReadFile(filepath.Join(cd, "summary.json"))
		if err != nil {
			return fmt.Errorf("cell %s: %w", c.ID, err)
		}
		if err := json.Unmarshal(data, &sum); err != nil {
			return fmt.Errorf("cell %s: summary.json: %w", c.ID, err)
		}
		jcts, err := readJCTs(filepath.Join(cd, "jobs.csv"))
		if err != nil {
			return fmt.Errorf("cell %s: %w", c.ID, err)
		}
		rec, err := recurring(c.Scenario)
		if err != nil {
			return fmt.Errorf("cell %s: %w", c.ID, err)
		}
		var all, r, a []float64
		for id, x := range jcts {
			all = append(all, x)
			if rec[id] {
				r = append(r, x)
			} else {
				a = append(a, x)
			}
		}
		share := "-"
		if cross := sum.Bytes.OCS + sum.Bytes.EPS; cross > 0 {
			share = fmt.Sprintf("%.1f%%", 100*sum.Bytes.OCS/cross)
		}
		fmt.Fprintf(w, "| %s | %s | %.1f | %s | %s | %d, %s | %d, %s |\n", c.Scheduler, key(c), sum.Makespan, share,
			quantiles(all), len(r), quantiles(r), len(a), quantiles(a))
	}
	return nil
}

// key names a cell by its grid values and seed.
func key(c cell) string {
	var ks []string
	for k, v := range c.Params {
		if k == "network" {
			v = "hybrid"
			if strings.Contains(c.Params[k], "two-tier") {
				v = "EPS"
			}
		}
		ks = append(ks, k+"="+v)
	}
	sort.Strings(ks)
	return strings.Join(append(ks, fmt.Sprintf("seed=%d", c.Seed)), " ")
}

func quantiles(xs []float64) string {
	if len(xs) == 0 {
		return "-"
	}
	sort.Float64s(xs)
	var out []string
	for _, p := range []float64{5, 25, 50, 75, 95} {
		out = append(out, fmt.Sprintf("%.1f", metrics.Percentile(xs, p)))
	}
	return strings.Join(out, " / ")
}

// recurring rebuilds a cell's workload and returns its recurring jobs.
func recurring(doc json.RawMessage) (map[string]bool, error) {
	sc, err := scenario.Parse("cell.yaml", doc, ".")
	if err != nil {
		return nil, err
	}
	src, err := sc.OpenWorkload()
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for {
		j, ok, err := src.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		out[j.ID] = j.Recurring
	}
}

// readJCTs is each job's JCT from a jobs.csv.
func readJCTs(path string) (map[string]float64, error) {
	jobs, err := metrics.ReadJobs(path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]float64, len(jobs))
	for _, j := range jobs {
		out[j.ID] = j.JCT
	}
	return out, nil
}

func readCells(path string) ([]cell, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []cell
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for n := 1; sc.Scan(); n++ {
		var c cell
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("%s line %d: %v", path, n, err)
		}
		out = append(out, c)
	}
	return out, sc.Err()
}
