package nas

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
)

// Measures are the NAS figures that summary.json does not hold, computed
// after a run from its jobs.csv and tasks.csv, the same way for every
// scheduler. Jobs are classed by the shuffle bytes they really moved.
type Measures struct {
	Jobs int
	// MapProgress is Fig. 3d: the mean over jobs with reducers of the share
	// of their maps finished when their first reducer started.
	MapProgress float64
	// OverThreshold is Fig. 3e: the mean over samples of the share of nodes
	// whose running maps will write more shuffle than TrafficThreshold (eq.
	// 3 with the true S_i, K_i of the jobs in the cluster).
	OverThreshold float64
	// ByClass is Fig. 5a: light, medium and heavy jobs.
	ByClass [3]ClassMeasure
	// Unfinished is how many jobs of tasks.csv are not in jobs.csv: jobs
	// the run left unfinished (MeasureConfig.Unfinished), left out of
	// every figure.
	Unfinished int
}

// ClassMeasure summarises one shuffle class.
type ClassMeasure struct {
	Jobs       int
	MeanJCT    float64 // s
	Throughput float64 // jobs / (last finish - first arrival) of the class
}

// MeasureConfig says how to read a run.
type MeasureConfig struct {
	Machines, Slots int     // the cluster (tasks.csv names only busy machines)
	Interval        float64 // seconds between Fig. 3e samples
	Light, Heavy    float64 // class bounds in bytes
	MapStage        string  // stage id of maps in tasks.csv ("map" for SWIM jobs)
	// Unfinished is the number of jobs the run left unfinished (a run
	// stopped by engine.until: summary.json's unfinished_jobs). tasks.csv
	// lists their started tasks but jobs.csv does not list them; up to
	// this many such jobs are left out, more is an error.
	Unfinished int
}

type runJob struct {
	arrival, finish, jct, shuffle float64
	maps                          []runTask
	firstReduce                   float64
}

type runTask struct {
	machine              int
	start, finish, bytes float64
}

// Measure computes the figures from a run's jobs.csv and tasks.csv.
func Measure(jobsCSV, tasksCSV io.Reader, c MeasureConfig) (Measures, error) {
	if c.Machines <= 0 || c.Slots <= 0 || !(c.Interval > 0) {
		return Measures{}, fmt.Errorf("measure: machines, slots and interval must be positive (got %d, %d, %g)", c.Machines, c.Slots, c.Interval)
	}
	jobs, order, err := readJobs(jobsCSV)
	if err != nil {
		return Measures{}, err
	}
	unfinished, err := readTasks(tasksCSV, jobs, c)
	if err != nil {
		return Measures{}, err
	}
	m := Measures{Jobs: len(order), Unfinished: unfinished}
	m.MapProgress = mapProgress(jobs, order)
	m.OverThreshold = overThreshold(jobs, order, c)
	m.ByClass = byClass(jobs, order, c)
	return m, nil
}

// MeasureJobs computes what jobs.csv alone gives, for a run that did not
// record its tasks: Fig. 3d from the jobs' own map_progress_at_first_reduce
// (recorded over every job with a dependent stage; the same jobs on
// MapReduce workloads) and Fig. 5a. OverThreshold is NaN.
func MeasureJobs(jobsCSV io.Reader, c MeasureConfig) (Measures, error) {
	rows, col, err := readCSV(jobsCSV, "jobs.csv", "job_id", "arrival", "finish", "jct", "shuffle_bytes", "map_progress_at_first_reduce")
	if err != nil {
		return Measures{}, err
	}
	jobs, order, err := jobsOf(rows, col)
	if err != nil {
		return Measures{}, err
	}
	m := Measures{Jobs: len(order), MapProgress: math.NaN(), OverThreshold: math.NaN()}
	sum, n := 0.0, 0
	for i, row := range rows {
		cell := row[col["map_progress_at_first_reduce"]]
		if cell == "" {
			continue // no dependent stage
		}
		x, err := strconv.ParseFloat(cell, 64)
		if err != nil || x < 0 || x > 1 {
			return Measures{}, fmt.Errorf("jobs.csv line %d: map_progress_at_first_reduce: expected a share between 0 and 1 or nothing, got %q", i+2, cell)
		}
		sum += x
		n++
	}
	if n > 0 {
		m.MapProgress = sum / float64(n)
	}
	m.ByClass = byClass(jobs, order, c)
	return m, nil
}

func readJobs(r io.Reader) (map[string]*runJob, []string, error) {
	rows, col, err := readCSV(r, "jobs.csv", "job_id", "arrival", "finish", "jct", "shuffle_bytes")
	if err != nil {
		return nil, nil, err
	}
	return jobsOf(rows, col)
}

func jobsOf(rows [][]string, col map[string]int) (map[string]*runJob, []string, error) {
	var err error
	jobs := map[string]*runJob{}
	var order []string
	for i, row := range rows {
		var v [4]float64
		for k, name := range []string{"arrival", "finish", "jct", "shuffle_bytes"} {
			if v[k], err = strconv.ParseFloat(row[col[name]], 64); err != nil {
				return nil, nil, fmt.Errorf("jobs.csv line %d: %s: %v", i+2, name, err)
			}
		}
		id := row[col["job_id"]]
		jobs[id] = &runJob{arrival: v[0], finish: v[1], jct: v[2], shuffle: v[3], firstReduce: math.Inf(1)}
		order = append(order, id)
	}
	return jobs, order, nil
}

// readTasks reads tasks.csv a row at a time (a full-size day's is over a
// gigabyte) and returns how many jobs it skipped as unfinished.
func readTasks(r io.Reader, jobs map[string]*runJob, c MeasureConfig) (int, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return 0, fmt.Errorf("tasks.csv: empty (no header)")
	}
	if err != nil {
		return 0, fmt.Errorf("tasks.csv: %v", err)
	}
	col, err := columns(header, "tasks.csv", "job_id", "stage", "machine", "start", "finish", "output_bytes")
	if err != nil {
		return 0, err
	}
	unfinished := map[string]bool{}
	for line := 2; ; line++ {
		row, err := cr.Read()
		if err == io.EOF {
			return len(unfinished), nil
		}
		if err != nil {
			return 0, fmt.Errorf("tasks.csv: %v", err)
		}
		id := row[col["job_id"]]
		j := jobs[id]
		if j == nil {
			if !unfinished[id] && len(unfinished) == c.Unfinished {
				return 0, fmt.Errorf("tasks.csv line %d: job %q is not in jobs.csv (and the run left %d jobs unfinished, all already seen)", line, id, c.Unfinished)
			}
			unfinished[id] = true
			continue
		}
		var t runTask
		var perr error
		num := func(name string) float64 {
			x, err := strconv.ParseFloat(row[col[name]], 64)
			if err != nil && perr == nil {
				perr = fmt.Errorf("tasks.csv line %d: %s: %v", line, name, err)
			}
			return x
		}
		t.start, t.finish, t.bytes = num("start"), num("finish"), num("output_bytes")
		t.machine = int(num("machine"))
		if perr != nil {
			return 0, perr
		}
		if t.machine < 0 || t.machine >= c.Machines {
			return 0, fmt.Errorf("tasks.csv line %d: machine %d outside the %d machines given", line, t.machine, c.Machines)
		}
		if row[col["stage"]] == c.MapStage {
			j.maps = append(j.maps, t)
		} else {
			j.firstReduce = math.Min(j.firstReduce, t.start)
		}
	}
}

// readCSV reads a header and rows, checking the named columns exist.
func readCSV(r io.Reader, name string, need ...string) ([][]string, map[string]int, error) {
	cr := csv.NewReader(r)
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(rows) == 0 {
		return nil, nil, fmt.Errorf("%s: empty (no header)", name)
	}
	col, err := columns(rows[0], name, need...)
	if err != nil {
		return nil, nil, err
	}
	return rows[1:], col, nil
}

// columns maps a header's names to their positions, checking the named
// columns exist.
func columns(header []string, name string, need ...string) (map[string]int, error) {
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, n := range need {
		if _, ok := col[n]; !ok {
			return nil, fmt.Errorf("%s: no column %q", name, n)
		}
	}
	return col, nil
}

func mapProgress(jobs map[string]*runJob, order []string) float64 {
	sum, n := 0.0, 0
	for _, id := range order {
		j := jobs[id]
		if math.IsInf(j.firstReduce, 1) || len(j.maps) == 0 {
			continue
		}
		done := 0
		for _, t := range j.maps {
			if t.finish <= j.firstReduce {
				done++
			}
		}
		sum += float64(done) / float64(len(j.maps))
		n++
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// overThreshold samples every Interval: jobs in the cluster give eq. 3's
// threshold, maps of shuffling jobs running at the instant give each
// node's pending shuffle.
func overThreshold(jobs map[string]*runJob, order []string, c MeasureConfig) float64 {
	type change struct {
		t       float64
		machine int // -1: a job's S and K
		bytes   float64
		maps    int
	}
	var ch []change
	first, last := math.Inf(1), math.Inf(-1)
	for _, id := range order {
		j := jobs[id]
		first, last = math.Min(first, j.arrival), math.Max(last, j.finish)
		s := 0.0
		shuffles := !math.IsInf(j.firstReduce, 1)
		for _, t := range j.maps {
			if shuffles {
				s += t.bytes
				ch = append(ch, change{t.start, t.machine, t.bytes, 0}, change{t.finish, t.machine, -t.bytes, 0})
			}
		}
		ch = append(ch, change{j.arrival, -1, s, len(j.maps)}, change{j.finish, -1, -s, -len(j.maps)})
	}
	sort.SliceStable(ch, func(a, b int) bool { return ch[a].t < ch[b].t })
	node := make([]float64, c.Machines)
	sumS, sumK := 0.0, 0
	k := 0
	total, samples := 0.0, 0
	for t := first + c.Interval; t < last; t += c.Interval {
		for ; k < len(ch) && ch[k].t <= t; k++ {
			if ch[k].machine < 0 {
				sumS += ch[k].bytes
				sumK += ch[k].maps
			} else {
				node[ch[k].machine] += ch[k].bytes
			}
		}
		if sumK <= 0 {
			continue
		}
		limit := float64(c.Slots) * sumS / float64(sumK)
		over := 0
		for _, b := range node {
			if b > limit*(1+1e-9)+1e-6 {
				over++
			}
		}
		total += float64(over) / float64(c.Machines)
		samples++
	}
	if samples == 0 {
		return math.NaN()
	}
	return total / float64(samples)
}

func byClass(jobs map[string]*runJob, order []string, c MeasureConfig) [3]ClassMeasure {
	var out [3]ClassMeasure
	var first, last [3]float64
	for i := range first {
		first[i], last[i] = math.Inf(1), math.Inf(-1)
	}
	for _, id := range order {
		j := jobs[id]
		k := Classify(j.shuffle, c.Light, c.Heavy)
		out[k].Jobs++
		out[k].MeanJCT += j.jct
		first[k], last[k] = math.Min(first[k], j.arrival), math.Max(last[k], j.finish)
	}
	for k := range out {
		if out[k].Jobs == 0 {
			out[k].MeanJCT, out[k].Throughput = math.NaN(), math.NaN()
			continue
		}
		out[k].MeanJCT /= float64(out[k].Jobs)
		if span := last[k] - first[k]; span > 0 {
			out[k].Throughput = float64(out[k].Jobs) / span
		}
	}
	return out
}
