package experiment

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/netsched/netsched/internal/textread"
	"github.com/netsched/netsched/report"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
)

// CompareOptions say what `netsched compare` runs.
type CompareOptions struct {
	Scenario   string   // scenario file; "" runs the embedded default scenario
	Schedulers []string // empty: every registered scheduler that applies
	Seeds      int      // runs per scheduler (seeds s, s+1, ... from the scenario's seed); 0 means 1
	Options             // Out (default out/compare-<name>), Workers, Progress
	NoReport   bool     // skip the HTML report and figures
}

// Comparison is the outcome of Compare.
type Comparison struct {
	Dir     string // the output directory
	Sweep   *Sweep
	Outcome *Outcome
	Rows    []report.Comparison // CompareMetrics, baseline first
	Notes   []string            // schedulers left out, and why
	Failed  []string            // schedulers the user named that failed
	Report  *report.Output
}

// Compare runs one scenario under several schedulers (a sweep without a
// grid) and normalizes CompareMetrics to the first scheduler.
func Compare(opts CompareOptions) (*Comparison, error) {
	sw, notes, err := compareSweep(opts)
	if err != nil {
		return nil, err
	}
	if opts.Out == "" {
		opts.Out = filepath.Join("out", "compare-"+fileSafe(sw.Name))
	}
	d, err := openOut(opts.Options)
	if err != nil {
		return nil, err
	}
	defer d.Close() // after the report, written into it
	opts.held = d
	out, err := Run(sw, opts.Options)
	if err != nil {
		return nil, err
	}
	cmp := &Comparison{Dir: opts.Out, Sweep: sw, Outcome: out, Notes: notes}
	explicit := len(opts.Schedulers) > 0
	for _, c := range out.Manifest.Failed() {
		msg := fmt.Sprintf("%s failed on this scenario (cell %s): %s", c.Scheduler, c.ID, c.Error)
		if explicit && !slices.Contains(cmp.Failed, c.Scheduler) {
			cmp.Failed = append(cmp.Failed, c.Scheduler)
		}
		cmp.Notes = append(cmp.Notes, msg)
	}
	res := report.NewResults(opts.Out, out.Table)
	if cmp.Rows, err = res.Compare(CompareMetrics, "", nil); err != nil {
		return nil, err
	}
	if !opts.NoReport && len(cmp.Rows) > 0 {
		title := "netsched compare: " + sw.Name
		if cmp.Report, err = report.Generate(res, report.Options{Title: title, Description: sw.Description}); err != nil {
			return nil, err
		}
	}
	return cmp, nil
}

// compareSweep builds the sweep: the scenario as base, the schedulers and
// the seeds; with no schedulers named, every registered one whose default
// construction succeeds, fifo first (the baseline) when it is registered.
func compareSweep(opts CompareOptions) (*Sweep, []string, error) {
	name, data, dir := "default.yaml", scenario.DefaultYAML(), ""
	if opts.Scenario != "" {
		var err error
		if data, err = textread.ReadFile(opts.Scenario); err != nil {
			return nil, nil, err
		}
		name, dir = opts.Scenario, filepath.Dir(opts.Scenario)
	}
	f, err := scenario.ParseFile(name, data)
	if err != nil {
		return nil, nil, err
	}
	var base map[string]any
	if err := yaml.Unmarshal(data, &base); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	sw := &Sweep{Name: f.Name, Base: base, BaseName: name, BaseDir: dir, Record: Record{Tasks: "auto", Timeline: true}}
	if sw.Name == "" {
		sw.Name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	}
	sw.Metrics = slices.Clone(CompareMetrics)
	for _, m := range DefaultMetrics {
		if !slices.Contains(sw.Metrics, m) {
			sw.Metrics = append(sw.Metrics, m)
		}
	}
	if opts.Seeds > MaxCells {
		return nil, nil, fmt.Errorf("--seeds %d: expected at most %d (the most cells a comparison may run)", opts.Seeds, MaxCells)
	}
	if opts.Seeds > 1 {
		if sw.Seeds, err = sw.SeedRange(opts.Seeds); err != nil {
			return nil, nil, fmt.Errorf("--seeds: %w", err)
		}
	} else if opts.Seeds < 0 {
		return nil, nil, fmt.Errorf("--seeds %d: expected 1 or more", opts.Seeds)
	}
	var notes []string
	names := opts.Schedulers
	if len(names) == 0 {
		names = defaultCompareSchedulers()
	}
	for _, n := range names {
		c := SchedulerChoice{Label: n, Name: n}
		if b := sw.baseScheduler(); b.Name == n {
			c.Params = b.Params
		}
		if slices.ContainsFunc(sw.Schedulers, func(x SchedulerChoice) bool { return x.Name == n }) {
			return nil, nil, fmt.Errorf("scheduler %s is named twice", n)
		}
		if err := checkScheduler(c); err != nil {
			if len(opts.Schedulers) > 0 {
				return nil, nil, err
			}
			notes = append(notes, fmt.Sprintf("%s left out: %v", n, err))
			continue
		}
		sw.Schedulers = append(sw.Schedulers, c)
	}
	if len(sw.Schedulers) == 0 {
		return nil, nil, fmt.Errorf("no scheduler to compare (%s)", strings.Join(notes, "; "))
	}
	if sw.cellsWith(1) > MaxCells {
		return nil, nil, fmt.Errorf("--seeds %d with %d schedulers: %s", opts.Seeds, len(sw.Schedulers), tooManyCells)
	}
	return sw, notes, nil
}

func defaultCompareSchedulers() []string {
	var names []string
	for _, i := range sched.Schedulers() {
		names = append(names, i.Name)
	}
	if k := slices.Index(names, "fifo"); k > 0 {
		names = append([]string{"fifo"}, slices.Delete(names, k, k+1)...)
	}
	return names
}

// fileSafe keeps a name one path element.
func fileSafe(s string) string { return strings.NewReplacer("/", "-", `\`, "-", " ", "_").Replace(s) }
