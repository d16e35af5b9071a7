package experiment

import (
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/netsched/netsched/internal/outdir"
	"github.com/netsched/netsched/report"
)

// Options control how a sweep runs; none of them changes its results.
type Options struct {
	Out      string    // output directory
	Workers  int       // cells run at once; 0 means one per CPU
	Resume   bool      // skip cells whose summary.json exists in Out
	Shard    Shard     // the part of the sweep to run; zero: all of it
	Progress io.Writer // where progress goes (nil: nowhere)
	// Force writes into an output directory that holds files netsched did
	// not write (beside them: they are never replaced; see outdir.Options).
	Force bool

	held *outdir.Dir // Out, when the caller holds it (to write its report too)

	logEvery  time.Duration // log-line period when Progress is not a terminal
	stopAfter int           // tests: stop after this many cells ran, as if killed
}

// Outcome is what Run did.
type Outcome struct {
	Manifest *Manifest
	Table    *report.Table // this shard's rows
	Ran      int           // cells simulated (or failed) in this run
	Resumed  int           // cells taken from an earlier run
	Files    []string      // files written at the top of Out
	// ManifestFile is manifest.json, or manifest-i-of-n.json for a shard.
	ManifestFile string
}

// errStopped is returned when Options.stopAfter cut the run short.
var errStopped = errors.New("sweep stopped early (test option)")

// cellOutcome is one cell's summary.json or error.
type cellOutcome struct {
	summary []byte
	err     error
}

// Run expands the sweep, runs this shard's cells in parallel and writes
// the tidy table, cells.jsonl and the manifest (or the shard's part files).
// A cell that fails is recorded with its error and the others go on; only
// errors writing the output stop the sweep.
func Run(sw *Sweep, opts Options) (*Outcome, error) {
	if opts.Out == "" {
		return nil, fmt.Errorf("sweep %s: no output directory", sw.Name)
	}
	if opts.held == nil {
		d, err := openOut(opts)
		if err != nil {
			return nil, err
		}
		defer d.Close()
		opts.held = d
	}
	all := Expand(sw)
	var mine []Cell
	for _, c := range all {
		if opts.Shard.owns(c.Index) {
			mine = append(mine, c)
		}
	}
	results, ran, resumed, err := runCells(sw, mine, opts)
	if err != nil {
		return nil, err
	}
	tbl, statuses, err := buildTable(sw, mine, results)
	if err != nil {
		return nil, err
	}
	m := &Manifest{
		Sweep: sw.Name, Description: sw.Description, Fingerprint: fingerprint(all),
		Grid: sw.axisKeys(), Schedulers: sw.Labels(), Seeds: sw.seeds(), Metrics: sw.Metrics,
		Report: sw.Report, CellsTotal: len(all), Cells: statuses,
		Table: "results.csv", CellsFile: "cells.jsonl",
	}
	manifestName, stem := "manifest.json", "results"
	if !opts.Shard.Whole() {
		sh := opts.Shard
		m.Shard = &sh
		stem = "part" + sh.suffix()
		m.Table, m.CellsFile, manifestName = stem+".csv", "cells"+sh.suffix()+".jsonl", "manifest"+sh.suffix()+".json"
	}
	files, err := outputFiles(sw, mine, tbl, m, stem, manifestName)
	if err != nil {
		return nil, err
	}
	if err := opts.held.Write(files); err != nil {
		return nil, err
	}
	return &Outcome{Manifest: m, Table: tbl, Ran: ran, Resumed: resumed, Files: outdir.Names(files), ManifestFile: manifestName}, nil
}

// openOut takes the sweep's output directory: the whole of it, or the
// shard's part, which other shards may write beside it.
func openOut(opts Options) (*outdir.Dir, error) {
	o := outdir.Options{Force: opts.Force}
	if !opts.Shard.Whole() {
		o.Part = "part" + opts.Shard.suffix()
	}
	return outdir.Open(opts.Out, o)
}

func outputFiles(sw *Sweep, cells []Cell, tbl *report.Table, m *Manifest, stem, manifestName string) ([]outdir.File, error) {
	files, err := tbl.Files(stem)
	if err != nil {
		return nil, err
	}
	jl, err := cellsJSONL(sw, cells)
	if err != nil {
		return nil, err
	}
	man, err := m.encode()
	if err != nil {
		return nil, err
	}
	return append(files, outdir.File{Name: m.CellsFile, Data: jl}, outdir.File{Name: manifestName, Data: man}), nil
}

// runCells runs the cells on a pool of workers; results are by position.
// It returns how many cells ran and how many were resumed.
func runCells(sw *Sweep, cells []Cell, opts Options) ([]cellOutcome, int, int, error) {
	results := make([]cellOutcome, len(cells))
	var todo []int
	for i, c := range cells {
		if opts.Resume {
			if s := doneSummary(opts.Out, c.ID); s != nil {
				results[i] = cellOutcome{summary: s}
				continue
			}
		}
		todo = append(todo, i)
	}
	resumed := len(cells) - len(todo)
	killed := opts.stopAfter > 0 && opts.stopAfter < len(todo)
	if killed {
		todo = todo[:opts.stopAfter]
	}
	every := opts.logEvery
	if every <= 0 {
		every = 5 * time.Second
	}
	prog := newProgress(opts.Progress, "sweep "+sw.Name, len(todo), every)
	err := pool(opts.Workers, todo, func(i int) error {
		sum, err := runCell(sw, &cells[i], opts.held)
		results[i] = cellOutcome{summary: sum, err: err}
		prog.cellDone(err != nil)
		var ce cellError
		if err != nil && !errors.As(err, &ce) {
			return fmt.Errorf("cell %s: %w", cells[i].ID, err)
		}
		return nil
	})
	prog.finish()
	if err != nil {
		return nil, 0, 0, err
	}
	if killed {
		return nil, 0, 0, errStopped
	}
	return results, len(todo), resumed, nil
}

// pool calls do for every item on workers goroutines (0: one per CPU) and
// stops handing out items after the first error, which it returns.
func pool(workers int, items []int, do func(int) error) error {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan int)
	)
	failed := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return first != nil
	}
	for range min(workers, max(len(items), 1)) {
		wg.Go(func() {
			for i := range next {
				if err := do(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		})
	}
	for _, i := range items {
		if failed() {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return first
}

// buildTable turns the cells' summaries into rows, in cell then metric
// order, and the manifest's statuses.
func buildTable(sw *Sweep, cells []Cell, results []cellOutcome) (*report.Table, []CellStatus, error) {
	tbl := &report.Table{Params: sw.axisKeys()}
	var statuses []CellStatus
	for i, c := range cells {
		r := results[i]
		st := CellStatus{Index: c.Index, ID: c.ID, Scheduler: c.Scheduler, Status: "ok"}
		vals := make([]float64, len(sw.Metrics))
		if r.err == nil {
			v, err := metricValues(r.summary, sw.Metrics)
			if err != nil {
				return nil, nil, fmt.Errorf("cell %s: %w", c.ID, err)
			}
			vals = v
		} else {
			st.Status, st.Error = "failed", r.err.Error()
			for k := range vals {
				vals[k] = math.NaN()
			}
		}
		statuses = append(statuses, st)
		for k, m := range sw.Metrics {
			tbl.Rows = append(tbl.Rows, report.Row{CellID: c.ID, Params: c.Params, Scheduler: c.Scheduler, Seed: c.Seed, Metric: m, Value: vals[k], Error: st.Error})
		}
	}
	return tbl, statuses, nil
}
