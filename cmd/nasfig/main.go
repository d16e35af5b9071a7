// Command nasfig computes NAS figures (Fig. 3d map progress at the first
// reducer, Fig. 3e nodes over TrafficThreshold, Fig. 5a per-class JCT and
// throughput) for every cell of a sweep output directory, from the cells'
// jobs.csv and tasks.csv (record tasks: always), and prints them as a
// Markdown table. Runs also record 3d themselves (summary.json
// map_progress_at_first_reduce, over every job with a dependent stage);
// nasfig keeps computing it with nas.Measure (jobs with a "map" stage), so
// that it also reads outputs written before that field existed.
//
//	go run ./cmd/nasfig [flags] out/reproduce/nas/fig3
package main

import (
	"flag"
	"fmt"
	"io"
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
		fmt.Fprintln(flag.CommandLine.Output(), "usage: nasfig [flags] SWEEP_OUTPUT_DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(os.Stdout, flag.Arg(0), *light, *heavy, *interval, *baseline); err != nil {
		fmt.Fprintln(os.Stderr, "nasfig:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, dir, lightS, heavyS string, interval float64, baseline string) error {
	light, err := units.ParseBytes(lightS)
	if err != nil {
		return fmt.Errorf("-light: %v", err)
	}
	heavy, err := units.ParseBytes(heavyS)
	if err != nil {
		return fmt.Errorf("-heavy: %v", err)
	}
	cells, err := experiment.ReadCells[cell](filepath.Join(dir, "cells.jsonl"))
	if err != nil {
		return err
	}
	type row struct {
		c cell
		m nas.Measures
	}
	var rows []row
	for _, c := range cells {
		cl := c.Scenario.Cluster
		cfg := nas.MeasureConfig{Machines: cl.Racks * cl.MachinesPerRack, Slots: cl.SlotsPerMachine,
			Interval: interval, Light: light, Heavy: heavy, MapStage: "map"}
		m, err := measureCell(filepath.Join(dir, "cells", c.ID), cfg)
		if err != nil {
			return fmt.Errorf("cell %s (%s): %w", c.ID, c.Scheduler, err)
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
		fmt.Fprintf(w, "| %s | %s | %d | %.3f | %.4f | %d / %d / %d | %.1f / %.1f / %.1f | %s / %s / %s |\n",
			r.c.Scheduler, key(r.c), m.Jobs, m.MapProgress, m.OverThreshold,
			m.ByClass[0].Jobs, m.ByClass[1].Jobs, m.ByClass[2].Jobs,
			m.ByClass[0].MeanJCT, m.ByClass[1].MeanJCT, m.ByClass[2].MeanJCT,
			ratio(0), ratio(1), ratio(2))
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
	if err != nil {
		return nas.Measures{}, fmt.Errorf("%v (run the sweep with record: {tasks: always})", err)
	}
	defer tf.Close()
	return nas.Measure(jf, tf, cfg)
}
