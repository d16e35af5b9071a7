package scenario

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/netsched/netsched/workload"
)

// resolveWorkload checks that exactly one workload form is given and sets
// sc.OpenWorkload for it.
func resolveWorkload(sc *Scenario, f *File, src *source, baseDir string, checkFiles bool) error {
	w := f.Workload
	if !src.has("workload") {
		return src.at("workload", "missing; expected workload: with one of jobs, trace or generate")
	}
	var given []string
	for _, k := range []string{"jobs", "trace", "generate"} {
		if src.has("workload." + k) {
			given = append(given, k)
		}
	}
	switch len(given) {
	case 0:
		return src.at("workload", "expected exactly one of jobs, trace or generate, got none")
	case 1:
	default:
		return src.at("workload."+given[1], "expected exactly one of jobs, trace or generate, got both %s and %s", given[0], given[1])
	}
	if w.Format != "" && given[0] != "trace" {
		return src.at("workload.format", "applies only to a trace")
	}
	if len(w.Options) > 0 && given[0] == "jobs" {
		return src.at("workload.options", "applies only to a trace or a generator")
	}
	switch given[0] {
	case "jobs":
		return resolveJobs(sc, w.Jobs, src)
	case "trace":
		return resolveTrace(sc, w, src, baseDir, checkFiles)
	default:
		open, ok := lookup(generators, w.Generate)
		if !ok {
			return src.at("workload.generate", "unknown generator %q (known: %s)", w.Generate, known(Generators()))
		}
		opts, at := w.Options, optionsSource(src, w.Options)
		sc.OpenWorkload = func() (workload.Source, error) { s, err := open("", opts, sc); return atOption(at, s, err) }
		return nil
	}
}

func resolveJobs(sc *Scenario, specs []JobSpec, src *source) error {
	if len(specs) == 0 {
		return src.at("workload.jobs", "expected a list of at least one job")
	}
	order, err := checkJobList(sc, specs, src, "workload.jobs")
	if err != nil {
		return err
	}
	sc.OpenWorkload = func() (workload.Source, error) {
		return &specSource{specs: specs, order: order}, nil
	}
	return nil
}

// checkJobList validates a list of jobs found at path and returns their
// indices sorted by arrival (stable, so equal arrivals keep the file's
// order).
func checkJobList(sc *Scenario, specs []JobSpec, src *source, path string) ([]int32, error) {
	order := make([]int32, len(specs))
	c := newJobChecker(len(sc.Machines))
	c.all = make(map[string]float64, len(specs))
	for i := range specs {
		order[i] = int32(i)
		if _, dup := c.all[specs[i].ID]; !dup {
			c.all[specs[i].ID] = float64(specs[i].Arrival)
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		switch x, y := specs[a].Arrival, specs[b].Arrival; {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	for _, i := range order {
		if _, err := c.check(src, fmt.Sprintf("%s[%d]", path, i), &specs[i]); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// specSource streams a checked list of jobs in arrival order, converting
// each to the job model only when the engine asks for it: a run holds the
// file's form of the list and the jobs it has reached, not a second copy
// of the whole list. Each pass makes new jobs, so a consumer may modify
// the jobs it is given.
type specSource struct {
	specs []JobSpec
	order []int32
	i     int
}

func (s *specSource) Next() (*workload.Job, bool, error) {
	if s.i >= len(s.order) {
		return nil, false, nil
	}
	j := s.specs[s.order[s.i]].toJob()
	s.i++
	return &j, true, nil
}

func resolveTrace(sc *Scenario, w WorkloadSpec, src *source, baseDir string, checkFiles bool) error {
	format := w.Format
	if format == "" {
		format = "native"
	}
	open, ok := lookup(formats, format)
	if !ok {
		where := "workload.format"
		if w.Format == "" {
			where = "workload.trace"
		}
		return src.at(where, "unknown trace format %q (known: %s)", format, known(Formats()))
	}
	path := w.Trace
	if path == "" {
		return src.at("workload.trace", "expected the path of a trace file")
	}
	if !filepath.IsAbs(path) && baseDir != "" {
		path = filepath.Join(baseDir, path)
	}
	if _, err := os.Stat(path); checkFiles && err != nil {
		return src.at("workload.trace", "cannot read the trace: %v", err)
	}
	opts, at := w.Options, optionsSource(src, w.Options)
	sc.OpenWorkload = func() (workload.Source, error) { s, err := open(path, opts, sc); return atOption(at, s, err) }
	return nil
}

func known(names []string) string {
	if len(names) == 0 {
		return "none registered"
	}
	return strings.Join(names, ", ")
}

// atOption points an importer's or generator's option error at the
// option's line in the scenario file (options are read when the workload
// opens, after loading); src is nil when the options are not the file's.
func atOption(src *source, s workload.Source, err error) (workload.Source, error) {
	var oe interface{ OptionKey() string }
	if err == nil || src == nil || !errors.As(err, &oe) {
		return s, err
	}
	e := src.at("workload.options."+oe.OptionKey(), "%v", err)
	e.Err = err
	return nil, e
}

// optionsSource is src when opts are the options written in its document,
// nil when a program set them (then no line can be cited).
func optionsSource(src *source, opts map[string]any) *source {
	n := src.lookup("workload.options")
	if n == nil {
		return nil
	}
	var inDoc map[string]any
	if err := yaml.NodeToValue(n, &inDoc); err != nil || !reflect.DeepEqual(inDoc, opts) {
		return nil
	}
	return src
}
