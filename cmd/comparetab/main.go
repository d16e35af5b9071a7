// Command comparetab prints the head-to-head tables of docs/comparison.md
// from the results.csv of several sweeps (one per workload, as `netsched
// reproduce compare/<workload>` writes them): one Markdown table per
// metric, schedulers as rows, workloads as columns.
//
// Each entry is the scheduler's value relative to the baseline's on the
// same workload, paired by seed: the geometric mean of the per-seed ratios
// with its 95% interval (package stats), marked "tie" when the interval
// contains 1.
// A header row gives the baseline's own mean. A scheduler that could not
// run a workload shows "n/a", and its error is listed under the tables.
//
// Usage:
//
//	comparetab [-baseline fair] [-metrics jct.mean,jct.p99,...] [-page FILE -block NAME] DIR...
//
// Each DIR holds a results.csv; the workload's name is the DIR's base name.
package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/netsched/netsched/internal/mdblock"
	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/report"
	"github.com/netsched/netsched/stats"
)

func main() {
	baseline := flag.String("baseline", "fair", "scheduler label every entry is relative to")
	metrics := flag.String("metrics", defaultMetrics, "metrics, one table each, in this order")
	page := flag.String("page", "", "write the tables into this Markdown page, between the markers of -block, instead of printing them")
	block := flag.String("block", "tables", "the name in the page's markers <!-- comparetab:NAME:begin --> and <!-- comparetab:NAME:end -->")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: comparetab [-baseline LABEL] [-metrics M1,M2,...] DIR...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	var ws []workload
	for _, dir := range flag.Args() {
		w, err := readWorkload(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "comparetab:", err)
			os.Exit(1)
		}
		ws = append(ws, w)
	}
	var b strings.Builder
	if err := write(&b, ws, *baseline, strings.Split(*metrics, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "comparetab:", err)
		os.Exit(1)
	}
	if *page == "" {
		fmt.Print(b.String())
		return
	}
	if err := updatePage(*page, *block, b.String()); err != nil {
		fmt.Fprintln(os.Stderr, "comparetab:", err)
		os.Exit(1)
	}
}

const defaultMetrics = "jct.mean,jct.p99,makespan,throughput,workflows.wct.mean,bytes.total.cross_rack,bytes.ocs_bytes"

// workload is one sweep's results: value[scheduler][metric][seed].
type workload struct {
	name   string
	scheds []string // in file order
	value  map[string]map[string]map[uint64]float64
	errs   map[string]string // scheduler -> its first error
}

func readWorkload(dir string) (workload, error) {
	path := filepath.Join(dir, "results.csv")
	data, err := os.ReadFile(path)
	if err != nil {
		return workload{}, err
	}
	t, err := report.ReadCSV(path, data)
	if err != nil {
		return workload{}, err
	}
	w := workload{name: filepath.Base(filepath.Clean(dir)), value: map[string]map[string]map[uint64]float64{}, errs: map[string]string{}}
	for _, r := range t.Rows {
		s := r.Scheduler
		if !slices.Contains(w.scheds, s) {
			w.scheds = append(w.scheds, s)
			w.value[s] = map[string]map[uint64]float64{}
		}
		if r.Error != "" {
			if _, seen := w.errs[s]; !seen {
				w.errs[s] = r.Error
			}
			continue
		}
		if math.IsNaN(r.Value) {
			continue
		}
		if w.value[s][r.Metric] == nil {
			w.value[s][r.Metric] = map[uint64]float64{}
		}
		w.value[s][r.Metric][r.Seed] = r.Value
	}
	return w, nil
}

func write(out io.Writer, ws []workload, baseline string, metrics []string) error {
	var scheds []string
	for _, w := range ws {
		for _, s := range w.scheds {
			if !slices.Contains(scheds, s) {
				scheds = append(scheds, s)
			}
		}
		if !slices.Contains(w.scheds, baseline) {
			return fmt.Errorf("%s: no scheduler %q to normalise to", w.name, baseline)
		}
	}
	for _, m := range metrics {
		if !anyValue(ws, baseline, m) {
			continue
		}
		fmt.Fprintf(out, "#### %s (relative to %s)\n\n| scheduler |", m, baseline)
		for _, w := range ws {
			fmt.Fprintf(out, " %s |", w.name)
		}
		fmt.Fprintf(out, "\n|---|%s\n| *%s, absolute* |", strings.Repeat("---|", len(ws)), baseline)
		for _, w := range ws {
			fmt.Fprintf(out, " %s |", absolute(m, mean(values(w.value[baseline][m]))))
		}
		fmt.Fprintln(out)
		for _, s := range scheds {
			fmt.Fprintf(out, "| %s |", s)
			for _, w := range ws {
				fmt.Fprintf(out, " %s |", entry(w, s, baseline, m))
			}
			fmt.Fprintln(out)
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintln(out, "#### Runs that failed")
	fmt.Fprintln(out)
	failed := false
	for _, w := range ws {
		for _, s := range w.scheds {
			if e, ok := w.errs[s]; ok {
				failed = true
				fmt.Fprintf(out, "- %s on %s: %s\n", s, w.name, firstLine(e))
			}
		}
	}
	if !failed {
		fmt.Fprintln(out, "None.")
	}
	return nil
}

// anyValue reports whether some workload has a nonzero baseline value of
// m: otherwise no entry of the table could be a ratio.
func anyValue(ws []workload, baseline, m string) bool {
	for _, w := range ws {
		for _, v := range w.value[baseline][m] {
			if v != 0 {
				return true
			}
		}
	}
	return false
}

// entry is s's value relative to the baseline's, paired by seed: the
// geometric mean of the per-seed ratios with its 95% interval (package
// stats), "tie" when the interval contains 1.
func entry(w workload, s, baseline, m string) string {
	if !slices.Contains(w.scheds, s) {
		return "-"
	}
	if s == baseline {
		return "1"
	}
	r, _ := stats.PairedBySeed(w.value[s][m], w.value[baseline][m])
	if r.N == 0 {
		if _, failed := w.errs[s]; failed {
			return "n/a"
		}
		return "-"
	}
	return r.Format(2)
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, v := range xs {
		sum += v
	}
	return sum / float64(len(xs))
}

// values lists a seed -> value map's values in seed order, so that sums
// round the same way on every run.
func values(bySeed map[uint64]float64) []float64 {
	out := make([]float64, 0, len(bySeed))
	for _, k := range slices.Sorted(maps.Keys(bySeed)) {
		out = append(out, bySeed[k])
	}
	return out
}

// absolute prints the baseline's mean in the metric's unit.
func absolute(m string, v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case strings.HasPrefix(m, "bytes."):
		return units.FormatBytes(v)
	case m == "throughput":
		return fmt.Sprintf("%.4g jobs/s", v)
	case strings.HasPrefix(m, "jct") || strings.HasPrefix(m, "workflows.wct") || m == "makespan" || strings.HasPrefix(m, "cct"):
		if v < 60 {
			return fmt.Sprintf("%.3gs", v)
		}
		return units.FormatDuration(math.Round(v))
	}
	return fmt.Sprintf("%.4g", v)
}

// pageBlock is a generated table block of docs/comparison.md: the
// workloads (under docs/reproductions/compare) and metrics it shows.
type pageBlock struct {
	name      string
	workloads []string
	metrics   []string
}

// dirs are the block's result directories from the repository root.
func (b pageBlock) dirs() []string {
	var out []string
	for _, w := range b.workloads {
		out = append(out, "docs/reproductions/compare/"+w)
	}
	return out
}

// comparisonBlocks are docs/comparison.md's generated tables.
var comparisonBlocks = []pageBlock{
	{"tables", []string{"coflow", "fb2010", "fb2009", "hybrid", "workflows", "heterogeneous"}, strings.Split(defaultMetrics, ",")},
	{"layers", []string{"layers"}, []string{"jct.mean", "jct.p99", "makespan"}},
}

// markers delimit a generated block of a page.
func markers(block string) (begin, end string) {
	return "<!-- comparetab:" + block + ":begin (generated; do not edit) -->", "<!-- comparetab:" + block + ":end -->"
}

// replaceBlock puts tables between the block's markers in text.
func replaceBlock(name, text, block, tables string) (string, error) {
	begin, end := markers(block)
	return mdblock.Replace(name, text, begin, end, tables)
}

func updatePage(path, block, tables string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text, err := replaceBlock(path, string(data), block, tables)
	if err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
