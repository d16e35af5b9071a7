// Command dawnfig prints the numbers of Dawn's figures for every cell of a
// sweep output directory (`netsched reproduce dawn/...` writes one under
// out/reproduce/dawn/<entry>) as Markdown tables: throughput (workflows
// finished within output.window), mean WCT and cross-rack bytes per
// workflow with their change against a baseline scheduler (Figs. 11, 15,
// 17), cross-rack bytes by kind (Fig. 12), WCT per benchmark or query
// (Tables 3-4) and its 99th percentile (Fig. 16), and tasks by kind and
// network period (Fig. 14, when the cells recorded tasks).
//
//	go run ./cmd/dawnfig out/reproduce/dawn/ml-physical
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/netsched/netsched/experiment"
	"github.com/netsched/netsched/sched/dawn"
)

type cell struct {
	ID        string            `json:"id"`
	Params    map[string]string `json:"params"`
	Scheduler string            `json:"scheduler"`
	Seed      uint64            `json:"seed"`
	m         dawn.Measures
}

// point names a cell's grid point and seed, without the scheduler.
func (c cell) point() string {
	var ks []string
	for k, v := range c.Params {
		if v != "" {
			ks = append(ks, k+"="+v)
		}
	}
	sort.Strings(ks)
	if len(ks) == 0 {
		return fmt.Sprintf("seed %d", c.Seed)
	}
	return strings.Join(ks, " ") + fmt.Sprintf(" seed %d", c.Seed)
}

func main() {
	baseline := flag.String("baseline", "fair", "scheduler label the others are compared with")
	class := flag.String("class", "pagerank", "class whose WCT percentiles the Fig. 16 table shows")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: dawnfig [flags] SWEEP_OUTPUT_DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(os.Stdout, flag.Arg(0), *baseline, *class); err != nil {
		fmt.Fprintln(os.Stderr, "dawnfig:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, dir, baseline, class string) error {
	cells, err := experiment.ReadCells[cell](filepath.Join(dir, "cells.jsonl"))
	if err != nil {
		return err
	}
	for i := range cells {
		c := &cells[i]
		if c.m, err = dawn.Measure(os.DirFS(filepath.Join(dir, "cells", c.ID))); err != nil {
			return fmt.Errorf("cell %s (%s): %w", c.ID, c.Scheduler, err)
		}
	}
	base := map[string]*cell{}
	for i := range cells {
		if cells[i].Scheduler == baseline {
			base[cells[i].point()] = &cells[i]
		}
	}
	overall(w, cells, base, baseline)
	kinds(w, cells)
	classes(w, cells, base, baseline)
	percentiles(w, cells, class)
	tasks(w, cells)
	return nil
}

// change is x relative to its baseline value b, as "+12%".
func change(x, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%+.0f%%", 100*(x/b-1))
}

func overall(w io.Writer, cells []cell, base map[string]*cell, baseline string) {
	fmt.Fprintf(w, "### Throughput, WCT, cross-rack (Figs. 11, 15, 17); changes vs %s\n\n", baseline)
	fmt.Fprintln(w, "| point | scheduler | workflows | finished in window | throughput | mean WCT in window (s) | change | mean WCT, all (s) | change | cross-rack per workflow (GB) | change |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	for _, c := range cells {
		m := c.m
		b := m
		if x := base[c.point()]; x != nil {
			b = x.m
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d (%gh) | %s | %.0f | %s | %.0f | %s | %.1f | %s |\n", c.point(), c.Scheduler,
			m.Workflows, m.InWindow, m.Window/3600, change(float64(m.InWindow), float64(b.InWindow)),
			m.WCTInWindow, change(m.WCTInWindow, b.WCTInWindow), m.WCT, change(m.WCT, b.WCT),
			m.Cross/1e9, change(m.Cross, b.Cross))
	}
	fmt.Fprintln(w)
}

func kinds(w io.Writer, cells []cell) {
	fmt.Fprintln(w, "### Cross-rack bytes by kind, GB per workflow (Fig. 12)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| point | scheduler | input | dependent | intermediate |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, c := range cells {
		fmt.Fprintf(w, "| %s | %s | %.2f | %.2f | %.2f |\n", c.point(), c.Scheduler, c.m.CrossInput/1e9, c.m.CrossDependent/1e9, c.m.CrossShuffle/1e9)
	}
	fmt.Fprintln(w)
}

func classes(w io.Writer, cells []cell, base map[string]*cell, baseline string) {
	fmt.Fprintf(w, "### Mean WCT per benchmark or query, s (Tables 3-4); change vs %s\n\n", baseline)
	fmt.Fprintln(w, "| point | scheduler | class | workflows | mean WCT | change |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, c := range cells {
		for _, k := range c.m.Classes() {
			s := c.m.ByClass[k]
			ch := "-"
			if b := base[c.point()]; b != nil {
				ch = change(s.Mean, b.m.ByClass[k].Mean)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %d | %.0f | %s |\n", c.point(), c.Scheduler, k, s.Count, s.Mean, ch)
		}
	}
	fmt.Fprintln(w)
}

func percentiles(w io.Writer, cells []cell, class string) {
	fmt.Fprintf(w, "### WCT of %s, s (Fig. 16)\n\n", class)
	fmt.Fprintln(w, "| point | scheduler | workflows | mean | p50 | p95 | p99 | max |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, c := range cells {
		if s, ok := c.m.ByClass[class]; ok {
			fmt.Fprintf(w, "| %s | %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f |\n", c.point(), c.Scheduler, s.Count, s.Mean, s.P50, s.P95, s.P99, s.Max)
		}
	}
	fmt.Fprintln(w)
}

func tasks(w io.Writer, cells []cell) {
	fmt.Fprintln(w, "### Tasks by the data they process and the network period at their start (Fig. 14)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| point | scheduler | kind | tasks | share | moved bytes across racks | of those, started unsaturated | of the others, started saturated |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
	}
	for _, c := range cells {
		k := c.m.Tasks
		all := k.Input.Add(k.Dependent).Add(k.Intermediate)
		if all.Total() == 0 {
			continue
		}
		for _, row := range []struct {
			name string
			p    dawn.Periods
		}{{"input", k.Input}, {"dependent", k.Dependent}, {"intermediate", k.Intermediate}, {"all", all}} {
			p := row.p
			fmt.Fprintf(w, "| %s | %s | %s | %d | %s | %s | %s | %s |\n", c.point(), c.Scheduler, row.name, p.Total(),
				pct(p.Total(), all.Total()), pct(p.SatCross+p.UnsatCross, p.Total()),
				pct(p.UnsatCross, p.SatCross+p.UnsatCross), pct(p.SatLocal, p.SatLocal+p.UnsatLocal))
		}
	}
	fmt.Fprintln(w)
}
