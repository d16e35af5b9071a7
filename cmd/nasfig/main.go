// Command nasfig computes NAS figures (Fig. 3d map progress at the first
// reducer, Fig. 3e nodes over TrafficThreshold, Fig. 5a per-class JCT and
// throughput) for every cell of a sweep output directory, or for run
// directories of `netsched run`, from their jobs.csv and tasks.csv (record
// tasks: always), and prints them as a Markdown table. Runs also record 3d
// themselves (summary.json map_progress_at_first_reduce, over every job
// with a dependent stage); nasfig computes it with nas.Measure (jobs with
// a "map" stage) when tasks.csv is there, so that it also reads outputs
// written before that field existed. Without tasks.csv it takes 3d from
// jobs.csv and leaves 3e out ("-"). A run stopped by engine.until is
// measured over its finished jobs: the tasks of the jobs it left unfinished
// (summary.json's unfinished_jobs) are left out, and a note says how many.
//
//	go run ./cmd/nasfig [flags] out/reproduce/nas/fig3
//	go run ./cmd/nasfig [flags] RUN_DIR...    # e.g. one run per scheduler
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/netsched/netsched/experiment"
	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/sched/nas"
)

type cell struct {
	ID        string            `json:"id"`
	Params    map[string]string `json:"params"`
	Scheduler string            `json:"scheduler"`
	Seed      uint64            `json:"seed"`
	Scenario  struct {
		Cluster struct {
			Racks           int `json:"racks"`
			MachinesPerRack int `json:"machines_per_rack"`
			SlotsPerMachine int `json:"slots_per_machine"`
		} `json:"cluster"`
	} `json:"scenario"`
}

func main() {
	light := flag.String("light", "1MB", "shuffle below which a job is light")
	heavy := flag.String("heavy", "100MB", "shuffle above which a job is heavy")
	interval := flag.Float64("interval", 10, "seconds between Fig. 3e samples")
	baseline := flag.String("baseline", "fair", "scheduler label the class throughputs are divided by")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: nasfig [flags] SWEEP_OUTPUT_DIR | RUN_DIR...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(os.Stdout, flag.Args(), *light, *heavy, *interval, *baseline); err != nil {
		fmt.Fprintln(os.Stderr, "nasfig:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, dirs []string, lightS, heavyS string, interval float64, baseline string) error {
	light, err := units.ParseBytes(lightS)
	if err != nil {
		return fmt.Errorf("-light: %v", err)
	}
	heavy, err := units.ParseBytes(heavyS)
	if err != nil {
		return fmt.Errorf("-heavy: %v", err)
	}
	var cells []cell
	var cellDirs []string
	if sweep := filepath.Join(dirs[0], "cells.jsonl"); len(dirs) == 1 && fileExists(sweep) {
		if cells, err = experiment.ReadCells[cell](sweep); err != nil {
			return err
		}
		for _, c := range cells {
			cellDirs = append(cellDirs, filepath.Join(dirs[0], "cells", c.ID))
		}
	} else {
		for _, d := range dirs {
			c, err := runCell(d)
			if err != nil {
				return err
			}
			cells, cellDirs = append(cells, c), append(cellDirs, d)
		}
	}
	type row struct {
		c cell
		m nas.Measures
	}
	var rows []row
	for i, c := range cells {
		cl := c.Scenario.Cluster
		cfg := nas.MeasureConfig{Machines: cl.Racks * cl.MachinesPerRack, Slots: cl.SlotsPerMachine,
			Interval: interval, Light: light, Heavy: heavy, MapStage: "map"}
		m, err := measureCell(cellDirs[i], cfg)
		if err != nil {
			return fmt.Errorf("%s (%s): %w", cellDirs[i], c.Scheduler, err)
		}
		rows = append(rows, row{c, m})
	}
	key := func(c cell) string {
		var ks []string
		for k, v := range c.Params {
			ks = append(ks, k+"="+v)
		}
		sort.Strings(ks)
		return strings.Join(ks, " ") + fmt.Sprintf(" seed=%d", c.Seed)
	}
	base := map[string]nas.Measures{}
	for _, r := range rows {
		if r.c.Scheduler == baseline {
			base[key(r.c)] = r.m
		}
	}
	fmt.Fprintf(w, "| scheduler | cell | jobs | 3d map progress at 1st reducer | 3e nodes over TrafficThreshold | light / medium / heavy jobs | mean JCT light / medium / heavy (s) | 5a throughput vs %s light / medium / heavy |\n", baseline)
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		m := r.m
		b, ok := base[key(r.c)]
		ratio := func(k int) string {
			if !ok || b.ByClass[k].Throughput == 0 || math.IsNaN(m.ByClass[k].Throughput) {
				return "-"
			}
			return fmt.Sprintf("%.3f", m.ByClass[k].Throughput/b.ByClass[k].Throughput)
		}
		over := "-"
		if !math.IsNaN(m.OverThreshold) {
			over = fmt.Sprintf("%.4f", m.OverThreshold)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %.3f | %s | %d / %d / %d | %.1f / %.1f / %.1f | %s / %s / %s |\n",
			r.c.Scheduler, key(r.c), m.Jobs, m.MapProgress, over,
			m.ByClass[0].Jobs, m.ByClass[1].Jobs, m.ByClass[2].Jobs,
			m.ByClass[0].MeanJCT, m.ByClass[1].MeanJCT, m.ByClass[2].MeanJCT,
			ratio(0), ratio(1), ratio(2))
	}
	for i, r := range rows {
		if r.m.Unfinished > 0 {
			fmt.Fprintf(w, "\n%s (%s): %d jobs unfinished when the run stopped are left out of every column.\n", cellDirs[i], r.c.Scheduler, r.m.Unfinished)
		}
	}
	return nil
}

func measureCell(dir string, cfg nas.MeasureConfig) (nas.Measures, error) {
	jf, err := os.Open(filepath.Join(dir, "jobs.csv"))
	if err != nil {
		return nas.Measures{}, err
	}
	defer jf.Close()
	tf, err := os.Open(filepath.Join(dir, "tasks.csv"))
	if errors.Is(err, fs.ErrNotExist) {
		return nas.MeasureJobs(jf, cfg)
	}
	if err != nil {
		return nas.Measures{}, err
	}
	defer tf.Close()
	if cfg.Unfinished, err = unfinishedJobs(dir); err != nil {
		return nas.Measures{}, err
	}
	return nas.Measure(jf, tf, cfg)
}

// unfinishedJobs is the number of jobs a run left unfinished (stopped by
// engine.until), from its summary.json; 0 when the directory has none.
func unfinishedJobs(dir string) (int, error) {
	path := filepath.Join(dir, "summary.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var sum struct {
		Unfinished int `json:"unfinished_jobs"`
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		return 0, fmt.Errorf("%s: %v", path, err)
	}
	return sum.Unfinished, nil
}

// runCell describes the run directory of `netsched run` as a cell: its
// scheduler and cluster from summary.json (the scenario as the run read
// it), its directory's name as the cell.
func runCell(dir string) (cell, error) {
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		return cell{}, fmt.Errorf("%v (expected a sweep output directory or run directories)", err)
	}
	var sum struct {
		Scheduler string `json:"scheduler"`
		Seed      uint64 `json:"seed"`
		Scenario  struct {
			Cluster struct {
				Racks           int
				MachinesPerRack int
				SlotsPerMachine int
				Machines        []json.RawMessage
			}
		} `json:"scenario"`
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		return cell{}, fmt.Errorf("%s: %v", filepath.Join(dir, "summary.json"), err)
	}
	cl := sum.Scenario.Cluster
	if len(cl.Machines) > 0 || cl.Racks < 1 || cl.MachinesPerRack < 1 || cl.SlotsPerMachine < 1 {
		return cell{}, fmt.Errorf("%s: expected a uniform cluster (racks, machines_per_rack, slots_per_machine >= 1, no per-machine overrides)", filepath.Join(dir, "summary.json"))
	}
	c := cell{ID: filepath.Base(filepath.Clean(dir)), Scheduler: sum.Scheduler, Seed: sum.Seed}
	c.Scenario.Cluster.Racks, c.Scenario.Cluster.MachinesPerRack, c.Scenario.Cluster.SlotsPerMachine = cl.Racks, cl.MachinesPerRack, cl.SlotsPerMachine
	return c, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
