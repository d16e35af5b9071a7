// Command jctparts splits a run's job completion times into where the time
// went, to tell what a mean JCT is made of. For each job of a run
// directory (jobs.csv and tasks.csv, `output: {tasks: true}`):
//
//   - wait: arrival to its first task's start (queueing for a slot);
//   - maps: first task's start to its last map's finish (the root stage,
//     -root, default "map");
//   - after maps: last map's finish to the job's finish (reducers: the
//     shuffle and reduce tail, and reducers still waiting for a slot).
//
// It prints the sum of each part over all jobs as a share of the sum of
// JCTs (the mean JCT is that sum / jobs), the same per job-size bin (tasks
// per job), and the share of the JCT sum held by the slowest 1% and 10% of
// jobs. Then where the slots' time went: slot-seconds held per stage, in
// the input phase (reading, fetching, or a reducer waiting for its maps'
// output) and computing; and the jobs whose tasks held the most
// slot-seconds (-top, default 5).
//
// Usage:
//
//	jctparts [-root map] RUN_DIR...
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/metrics"
)

func main() {
	root := flag.String("root", "map", "name of the root stage (maps)")
	top := flag.Int("top", 5, "list the N jobs whose tasks held the most slot-seconds")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: jctparts [-root map] RUN_DIR...   (each with jobs.csv and tasks.csv)")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	for _, dir := range flag.Args() {
		if err := report(os.Stdout, dir, *root, *top); err != nil {
			fmt.Fprintln(os.Stderr, "jctparts:", err)
			os.Exit(1)
		}
	}
}

// parts is one job's JCT split three ways.
type parts struct {
	jct, wait, maps, after float64
	tasks                  int
}

// split computes every job's parts from its records and its tasks.
func split(jobs []metrics.JobRecord, tasks []metrics.TaskRecord, root string) ([]parts, error) {
	type span struct {
		first, lastMap float64
		seen, mapSeen  bool
	}
	spans := map[string]*span{}
	for _, t := range tasks {
		s := spans[t.Job]
		if s == nil {
			s = &span{}
			spans[t.Job] = s
		}
		if !s.seen || t.Start < s.first {
			s.first, s.seen = t.Start, true
		}
		if t.Stage == root && (!s.mapSeen || t.Finish > s.lastMap) {
			s.lastMap, s.mapSeen = t.Finish, true
		}
	}
	out := make([]parts, 0, len(jobs))
	for _, j := range jobs {
		s := spans[j.ID]
		if s == nil {
			return nil, fmt.Errorf("job %s has no task in tasks.csv (was the run recorded with output: {tasks: true}?)", j.ID)
		}
		p := parts{jct: j.JCT, tasks: j.Tasks, wait: s.first - j.Arrival}
		end := j.Finish
		if s.mapSeen {
			end = s.lastMap
		}
		p.maps = end - s.first
		p.after = j.Finish - end
		out = append(out, p)
	}
	return out, nil
}

var bins = []struct {
	name   string
	lo, hi int
}{{"1-2 tasks", 1, 2}, {"3-10", 3, 10}, {"11-100", 11, 100}, {"101-1000", 101, 1000}, {">1000", 1001, math.MaxInt}}

func report(w io.Writer, dir, root string, top int) error {
	jobs, err := metrics.ReadJobs(dir)
	if err != nil {
		return err
	}
	tasks, err := metrics.ReadTasks(dir)
	if err != nil {
		return err
	}
	ps, err := split(jobs, tasks, root)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	total := 0.0
	for _, p := range ps {
		total += p.jct
	}
	fmt.Fprintf(w, "%s: %d jobs, mean JCT %.1f s (sum %.4g s)\n", dir, len(ps), total/float64(len(ps)), total)
	fmt.Fprintf(w, "| jobs | count | share of JCT sum | mean JCT | mean wait | mean maps | mean after maps | wait / maps / after (share of the JCT sum) |\n|---|---|---|---|---|---|---|---|\n")
	row := func(name string, keep func(parts) bool) {
		var n int
		var s parts
		for _, p := range ps {
			if keep(p) {
				n++
				s.jct += p.jct
				s.wait += p.wait
				s.maps += p.maps
				s.after += p.after
			}
		}
		if n == 0 {
			return
		}
		m := float64(n)
		fmt.Fprintf(w, "| %s | %d | %.1f%% | %.1f s | %.1f s | %.1f s | %.1f s | %.1f%% / %.1f%% / %.1f%% |\n", name, n, 100*s.jct/total,
			s.jct/m, s.wait/m, s.maps/m, s.after/m, 100*s.wait/total, 100*s.maps/total, 100*s.after/total)
	}
	row("all", func(parts) bool { return true })
	for _, b := range bins {
		row(b.name, func(p parts) bool { return p.tasks >= b.lo && p.tasks <= b.hi })
	}
	jcts := make([]float64, len(ps))
	for i, p := range ps {
		jcts[i] = p.jct
	}
	slices.Sort(jcts)
	slices.Reverse(jcts)
	for _, f := range []float64{0.01, 0.1} {
		k := max(1, int(math.Round(f*float64(len(jcts)))))
		s := 0.0
		for _, x := range jcts[:k] {
			s += x
		}
		fmt.Fprintf(w, "slowest %.0f%% (%d jobs): %.1f%% of the JCT sum\n", 100*f, k, 100*s/total)
	}
	slotTime(w, tasks, root)
	topHolders(w, jobs, tasks, root, top)
	return nil
}

// topHolders lists the n jobs whose tasks held the most slot-seconds.
func topHolders(w io.Writer, jobs []metrics.JobRecord, tasks []metrics.TaskRecord, root string, n int) {
	if n <= 0 {
		return
	}
	type hold struct {
		held        float64
		roots, rest int
	}
	per := map[string]*hold{}
	all := 0.0
	for _, t := range tasks {
		h := per[t.Job]
		if h == nil {
			h = &hold{}
			per[t.Job] = h
		}
		h.held += t.Finish - t.Start
		all += t.Finish - t.Start
		if t.Stage == root {
			h.roots++
		} else {
			h.rest++
		}
	}
	byHeld := slices.Clone(jobs)
	slices.SortStableFunc(byHeld, func(a, b metrics.JobRecord) int {
		ha, hb := per[a.ID], per[b.ID]
		switch {
		case ha.held > hb.held:
			return -1
		case ha.held < hb.held:
			return 1
		}
		return 0
	})
	fmt.Fprintf(w, "| job | share of slot-seconds | %s tasks | other tasks | input | shuffle | JCT |\n|---|---|---|---|---|---|---|\n", root)
	for _, j := range byHeld[:min(n, len(byHeld))] {
		h := per[j.ID]
		fmt.Fprintf(w, "| %s | %.1f%% | %d | %d | %s | %s | %.0f s |\n", j.ID, 100*h.held/all, h.roots, h.rest,
			units.FormatBytes(j.InputBytes), units.FormatBytes(j.ShuffleBytes), j.JCT)
	}
}

// slotTime prints the slot-seconds held per stage and phase; the input
// phase of a non-root task is split at its job's last map finish: before
// it, the task holds its slot while maps still run (or wait for a slot).
func slotTime(w io.Writer, tasks []metrics.TaskRecord, root string) {
	type use struct {
		n                    int
		input, reckon, early float64
	}
	lastMap := map[string]float64{}
	for _, t := range tasks {
		if t.Stage == root {
			lastMap[t.Job] = max(lastMap[t.Job], t.Finish)
		}
	}
	var order []string
	per := map[string]*use{}
	all := 0.0
	for _, t := range tasks {
		u := per[t.Stage]
		if u == nil {
			u = &use{}
			per[t.Stage] = u
			order = append(order, t.Stage)
		}
		u.n++
		u.input += t.InputDone - t.Start
		u.reckon += t.Finish - t.InputDone
		if lm, ok := lastMap[t.Job]; ok && t.Stage != root {
			u.early += max(0, min(lm, t.InputDone)-t.Start)
		}
		all += t.Finish - t.Start
	}
	fmt.Fprintf(w, "| stage | tasks | slot-seconds | in input phase | of which before the job's last map finished | computing | mean input phase | mean compute |\n|---|---|---|---|---|---|---|---|\n")
	for _, st := range order {
		u := per[st]
		fmt.Fprintf(w, "| %s | %d | %.4g (%.1f%%) | %.1f%% | %.1f%% | %.1f%% | %.1f s | %.1f s |\n", st, u.n, u.input+u.reckon, 100*(u.input+u.reckon)/all,
			100*u.input/all, 100*u.early/all, 100*u.reckon/all, u.input/float64(u.n), u.reckon/float64(u.n))
	}
}
