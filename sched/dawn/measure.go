package dawn

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strconv"

	"github.com/netsched/netsched/metrics"
)

// Measures are the numbers Dawn's figures report for one run, read from
// its output files (docs/scenario.md): what `netsched sweep` tables do not
// hold (per-workflow cross-rack bytes, WCT per benchmark, tasks by kind).
type Measures struct {
	Workflows int
	// Window is output.window (s); InWindow counts the workflows finished
	// within it of the first arrival: Dawn's throughput (§5.3).
	Window   float64
	InWindow int
	// WCT is the mean workflow completion time over every workflow;
	// WCTInWindow over those finished within the window.
	WCT, WCTInWindow float64
	// Cross-rack bytes per workflow (§5.3), in all and by kind (Fig. 12):
	// DFS input, dependent data (parent jobs' outputs), intermediate data.
	Cross, CrossInput, CrossDependent, CrossShuffle float64
	// ByClass is WCT per benchmark or query (Tables 3-4, Fig. 16), keyed
	// by the jobs' class label.
	ByClass map[string]metrics.Stats
	// Tasks is Fig. 14 (from tasks.csv; zero without it).
	Tasks TaskKinds
}

// TaskKinds counts finished tasks by the data they process (Fig. 14(a)):
// input (a root stage of a job without parent jobs), dependent (a root
// stage of a job of a workflow), intermediate (every other stage); and
// each by whether it moved bytes across racks and whether the monitor
// said saturated when it took its container (Fig. 14(b)).
type TaskKinds struct {
	Input, Dependent, Intermediate Periods
}

// Periods splits tasks by the network's state at their start and whether
// they fetched across racks.
type Periods struct {
	SatCross, SatLocal, UnsatCross, UnsatLocal int
}

// Total is the number of tasks.
func (p Periods) Total() int { return p.SatCross + p.SatLocal + p.UnsatCross + p.UnsatLocal }

// Add sums two counts.
func (p Periods) Add(o Periods) Periods {
	return Periods{p.SatCross + o.SatCross, p.SatLocal + o.SatLocal, p.UnsatCross + o.UnsatCross, p.UnsatLocal + o.UnsatLocal}
}

// Measure reads a run's summary.json, workflows.csv, jobs.csv, and when
// present stages.csv and tasks.csv, from dir.
func Measure(dir fs.FS) (Measures, error) {
	var m Measures
	var sum struct {
		Bytes  metrics.Bytes    `json:"bytes"`
		Window *metrics.Window  `json:"window"`
		WF     *json.RawMessage `json:"workflows"`
	}
	data, err := fs.ReadFile(dir, "summary.json")
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		return m, fmt.Errorf("summary.json: %w", err)
	}
	jobs, err := readCSV(dir, "jobs.csv")
	if err != nil {
		return m, err
	}
	class := map[string]string{}
	dependent := map[string]bool{}
	for _, r := range jobs {
		class[r["job_id"]] = r["class"]
		dependent[r["job_id"]] = num(r["dependent_bytes"]) > 0
	}
	wfs, err := readCSV(dir, "workflows.csv")
	if err != nil {
		// No job depends on another (a Tez query is one job): every job
		// is a workflow of its own.
		if _, statErr := fs.Stat(dir, "workflows.csv"); statErr == nil {
			return m, err
		}
		wfs = nil
		for _, r := range jobs {
			wfs = append(wfs, map[string]string{"workflow_id": r["job_id"], "submit": r["arrival"], "finish": r["finish"], "wct": r["jct"]})
		}
	}
	if sum.Window != nil {
		m.Window = sum.Window.Seconds
	}
	var all, inWin []float64
	by := map[string][]float64{}
	first := 0.0
	for i, r := range wfs {
		if s := num(r["submit"]); i == 0 || s < first {
			first = s
		}
	}
	for _, r := range wfs {
		wct := num(r["wct"])
		all = append(all, wct)
		by[class[r["workflow_id"]]] = append(by[class[r["workflow_id"]]], wct)
		if m.Window > 0 && num(r["finish"])-first <= m.Window {
			inWin = append(inWin, wct)
		}
	}
	m.Workflows = len(wfs)
	m.InWindow = len(inWin)
	m.WCT = metrics.Summarize(all).Mean
	m.WCTInWindow = metrics.Summarize(inWin).Mean
	m.ByClass = map[string]metrics.Stats{}
	for k, xs := range by {
		m.ByClass[k] = metrics.Summarize(xs)
	}
	if n := float64(m.Workflows); n > 0 {
		b := sum.Bytes
		m.Cross, m.CrossInput, m.CrossDependent, m.CrossShuffle = b.Total.CrossRack/n, b.Input.CrossRack/n, b.Dependent.CrossRack/n, b.Shuffle.CrossRack/n
	}
	m.Tasks, err = taskKinds(dir, dependent)
	return m, err
}

// taskKinds is Fig. 14 from tasks.csv and stages.csv, when recorded.
func taskKinds(dir fs.FS, dependent map[string]bool) (TaskKinds, error) {
	var k TaskKinds
	tasks, err := readCSV(dir, "tasks.csv")
	if err != nil {
		return k, nil // not recorded
	}
	stages, err := readCSV(dir, "stages.csv")
	if err != nil {
		return k, err
	}
	root := map[[2]string]bool{}
	for _, r := range stages {
		root[[2]string{r["job_id"], r["stage"]}] = r["parents"] == "0"
	}
	for _, t := range tasks {
		p := &k.Intermediate
		if root[[2]string{t["job_id"], t["stage"]}] {
			p = &k.Input
			if dependent[t["job_id"]] {
				p = &k.Dependent
			}
		}
		cross, sat := num(t["cross_rack_bytes"]) > 0, t["saturated_at_start"] == "true"
		switch {
		case sat && cross:
			p.SatCross++
		case sat:
			p.SatLocal++
		case cross:
			p.UnsatCross++
		default:
			p.UnsatLocal++
		}
	}
	return k, nil
}

// readCSV reads a CSV file with a header into one map per row.
func readCSV(dir fs.FS, name string) ([]map[string]string, error) {
	f, err := dir.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var out []map[string]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		row := make(map[string]string, len(head))
		for i, h := range head {
			row[h] = rec[i]
		}
		out = append(out, row)
	}
}

func num(s string) float64 {
	x, _ := strconv.ParseFloat(s, 64)
	return x
}

// Classes lists the classes of m in order.
func (m Measures) Classes() []string {
	var out []string
	for k := range m.ByClass {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
