package experiment

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/goccy/go-yaml"
	"github.com/netsched/netsched/internal/outdir"
	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sim"
)

// CellDir is where a cell's run files go, relative to the sweep output.
func CellDir(id string) string { return filepath.Join("cells", id) }

// scenarioName is the cell's scenario file as errors cite it (relative to
// the sweep's output directory, where it is written).
func scenarioName(id string) string { return "cells/" + id + "/scenario.yaml" }

// doneSummary returns the summary of a cell finished by an earlier run, or
// nil. summary.json is written last, so its presence means the cell is done.
func doneSummary(out, id string) []byte {
	data, err := os.ReadFile(filepath.Join(out, CellDir(id), "summary.json"))
	if err != nil {
		return nil
	}
	return data
}

// runCell resolves, simulates and writes one cell; it returns summary.json.
// Any failure of the cell itself is returned as a cellError.
func runCell(sw *Sweep, c *Cell, out *outdir.Dir) ([]byte, error) {
	dir := CellDir(c.ID)
	text, err := yaml.Marshal(c.Doc)
	if err != nil {
		return nil, cellError{fmt.Errorf("encoding the scenario: %w", err)}
	}
	scenFile := outdir.File{Name: "scenario.yaml", Data: text}
	fail := func(err error) ([]byte, error) {
		// Keep the scenario the error's line and column point into.
		if werr := out.Write(inDir(dir, []outdir.File{scenFile})); werr != nil {
			return nil, werr
		}
		return nil, cellError{err}
	}
	if c.Err != "" {
		return fail(errors.New(c.Err))
	}
	sc, err := scenario.ParseWithData(scenarioName(c.ID), text, sw.BaseDir, sw.DataDir)
	if err != nil {
		return fail(err)
	}
	sc.Output.Timeline = sw.Record.Timeline
	switch sw.Record.Tasks {
	case "always":
		sc.Output.Tasks = true
	case "never":
		sc.Output.Tasks = false
	default: // auto: as the scenario asks, and for runs small enough to draw
		if !sc.Output.Tasks {
			if sc.Output.Tasks, err = atMostTasks(sc, GanttMaxTasks); err != nil {
				return fail(err)
			}
		}
	}
	res, err := simulate(sc)
	if err != nil {
		return fail(err)
	}
	files, err := res.Files()
	if err != nil {
		return nil, err
	}
	files = append(files, scenFile)
	summary, files := takeSummary(files)
	// summary.json goes last: a run killed while writing leaves no marker.
	if err := out.Write(inDir(dir, files)); err != nil {
		return nil, err
	}
	if err := out.Write(inDir(dir, []outdir.File{{Name: "summary.json", Data: summary}})); err != nil {
		return nil, err
	}
	return summary, nil
}

// simulate runs the scenario; a panic (a bug in a scheduler, say) fails
// this cell instead of the whole sweep. The message leaves the stack out
// (its addresses would differ between runs); `netsched run` on the cell's
// scenario.yaml shows it.
func simulate(sc *scenario.Scenario) (res *metrics.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the simulation panicked: %v (a bug; `netsched run %s` shows where)", p, sc.Path)
		}
	}()
	return sim.Run(sc)
}

// cellError marks a failure of the cell's scenario or run, which the sweep
// records and moves past; other errors (a full disk) stop the sweep.
type cellError struct{ err error }

func (e cellError) Error() string { return e.err.Error() }
func (e cellError) Unwrap() error { return e.err }

// inDir puts the files in the subdirectory dir.
func inDir(dir string, files []outdir.File) []outdir.File {
	out := make([]outdir.File, len(files))
	for i, f := range files {
		f.Name = filepath.Join(dir, f.Name)
		out[i] = f
	}
	return out
}

func takeSummary(files []outdir.File) ([]byte, []outdir.File) {
	var rest []outdir.File
	var summary []byte
	for _, f := range files {
		if f.Name == "summary.json" {
			summary = f.Data
		} else {
			rest = append(rest, f)
		}
	}
	return summary, rest
}

// atMostTasks reports whether the workload has at most limit tasks,
// reading no further than needed to tell.
func atMostTasks(sc *scenario.Scenario, limit int) (bool, error) {
	if sc.OpenWorkload == nil {
		return false, nil
	}
	src, err := sc.OpenWorkload()
	if err != nil {
		return false, err
	}
	if c, ok := src.(interface{ Close() error }); ok {
		defer c.Close()
	}
	n := 0
	for {
		j, ok, err := src.Next()
		if err != nil {
			return false, err
		}
		if !ok {
			return true, nil
		}
		for i := range j.Stages {
			n += j.Stages[i].TotalTasks()
		}
		if n > limit {
			return false, nil
		}
	}
}
