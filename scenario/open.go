package scenario

import (
	"errors"
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
func resolveWorkload(sc *Scenario, f *File, src *source, dirs traceDirs, checkFiles bool) error {
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
		l := w.leftOut()
		if l == nil {
			l = &jobList{specs: w.Jobs}
		}
		return resolveJobs(sc, l, src)
	case "trace":
		return resolveTrace(sc, w, src, dirs, checkFiles)
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

func resolveJobs(sc *Scenario, l *jobList, src *source) error {
	if l.len() == 0 {
		return src.at("workload.jobs", "expected a list of at least one job")
	}
	order, err := checkJobList(sc, l, src, "workload.jobs")
	if err != nil {
		return err
	}
	sc.OpenWorkload = func() (workload.Source, error) {
		return &specSource{list: l, order: order}, nil
	}
	return nil
}

// leftOut is the list Parse left out of w.Jobs, if w has no other workload.
func (w *WorkloadSpec) leftOut() *jobList {
	if w.held == nil || w.Jobs != nil || w.Trace != "" || w.Generate != "" {
		return nil
	}
	return w.held
}

// checkJobList validates a list of jobs found at path and returns their
// indices sorted by arrival (stable, so equal arrivals keep the file's
// order).
func checkJobList(sc *Scenario, l *jobList, src *source, path string) ([]int32, error) {
	n := l.len()
	if l.text != nil && l.arrivals == nil {
		if err := l.readArrivals(); err != nil {
			return nil, err
		}
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		switch x, y := l.arrival(int(a)), l.arrival(int(b)); {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	c := newJobChecker(sc.Machines)
	c.seen, c.list, c.listSrc = make(map[string]int, n), path, src
	c.find = func(id string) (float64, bool) {
		for i := range n {
			js, err := l.spec(i)
			if err == nil && js.ID == id {
				return float64(js.Arrival), true
			}
		}
		return 0, false
	}
	for _, i := range order {
		js, err := l.spec(int(i))
		if err != nil {
			return nil, err
		}
		if _, err := c.check(src, int(i), js); err != nil {
			return nil, err
		}
	}
	l.arrivals = nil // checked: the jobs' text is all that is needed now
	return order, nil
}

// specSource streams a checked list of jobs in arrival order, converting
// each to the job model only when the engine asks for it: a run holds the
// list (its file form, or for a long list its text) and the jobs it has
// reached, not a second copy of the whole list. Each pass makes new jobs,
// so a consumer may modify the jobs it is given.
type specSource struct {
	list  *jobList
	order []int32
	i     int
}

func (s *specSource) Next() (*workload.Job, bool, error) {
	if s.i >= len(s.order) {
		return nil, false, nil
	}
	js, err := s.list.spec(int(s.order[s.i]))
	if err != nil {
		return nil, false, err
	}
	j := js.toJob()
	s.i++
	return &j, true, nil
}

// traceDirs say where relative trace paths are read: under base, or, when
// data is set, as data/<file name>.
type traceDirs struct{ base, data string }

func (d traceDirs) path(p string) string { return TracePath(p, d.base, d.data) }

// TracePath is where a scenario's trace path p is read: as written when
// absolute, as dataDir/<file name> when dataDir is set, else under baseDir.
func TracePath(p, baseDir, dataDir string) string {
	switch {
	case filepath.IsAbs(p):
		return p
	case dataDir != "":
		return filepath.Join(dataDir, filepath.Base(p))
	case baseDir != "":
		return filepath.Join(baseDir, p)
	}
	return p
}

func resolveTrace(sc *Scenario, w WorkloadSpec, src *source, dirs traceDirs, checkFiles bool) error {
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
	if w.Trace == "" {
		return src.at("workload.trace", "expected the path of a trace file")
	}
	path := dirs.path(w.Trace)
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
