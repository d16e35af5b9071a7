// Command pbstats runs PushBox on a sweep's base scenario and prints the
// counters of its mechanisms (pushbox.Stats: the not-hinder test, the
// controlled concurrency and its wildcard) and, with a variant, which jobs
// the mechanism touched and how their JCT changed.
//
// The counters are not part of a run directory (summary.json has no hook
// for scheduler counters), so pbstats runs the scenario itself, in
// process, exactly as a sweep cell of the base scheduler: the sweep's base
// document with `scheduler: {name: pushbox}` and the seed.
//
// Usage:
//
//	pbstats [-seed 1] [-set PATH=VALUE]... [-vs PATH=VALUE]... SWEEP
//
// SWEEP is a catalog entry (pushbox/ablation) or a sweep file. -set changes
// the scenario document of every run (cluster.nic=1Gbps,
// scheduler.params.m=2); -vs changes the variant only
// (scheduler.params.ablate=W, knowledge.f=2). Values are YAML scalars.
// Without -vs only the base run is printed.
//
// With a variant, a job is touched, when the estimates differ between the
// runs (knowledge.f), if its estimated coflow size orders differently
// against a job it overlapped with in the base run; otherwise by its own
// counters: under a W variant, the wildcard admitted one of its tasks in
// the base or was denied to one in the variant; under an H variant, the
// not-hinder test refused one of its tasks in the base or one was placed
// failing it in the variant; else any such counter. The table gives, per
// size bin of bytes read, the share of the base's JCT sum and the mean JCT
// of all, touched and untouched jobs in both runs; the header lines give
// the counters, the coflow order changes and, for estimates, how far the
// variant's coflow sizes are from the base's.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"text/tabwriter"

	"github.com/netsched/netsched/experiment"
	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/pushbox"
	"github.com/netsched/netsched/sim"
	_ "github.com/netsched/netsched/trace/register"
)

func main() {
	seed := flag.Uint64("seed", 1, "scenario seed (the sweep's cells use 1..seeds)")
	var set, vs experiment.Changes
	flag.Var(&set, "set", "PATH=VALUE: change the scenario document of every run (repeatable)")
	flag.Var(&vs, "vs", "PATH=VALUE: change the variant's document (repeatable); without it only the base runs")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: pbstats [-seed N] [-set PATH=VALUE]... [-vs PATH=VALUE]... SWEEP")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(os.Stdout, flag.Arg(0), *seed, set, vs); err != nil {
		fmt.Fprintln(os.Stderr, "pbstats:", err)
		os.Exit(1)
	}
}

// outcome is one run: its jobs and PushBox's counters.
type outcome struct {
	jobs  []metrics.JobRecord
	sum   metrics.Summary
	stats pushbox.Stats
}

func run(w io.Writer, name string, seed uint64, set, vs []string) error {
	sw, err := experiment.LoadFileOrCatalog(name)
	if err != nil {
		return err
	}
	base, err := simulate(sw, seed, set)
	if err != nil {
		return err
	}
	if len(vs) == 0 {
		printRuns(w, []string{"base"}, []*outcome{base})
		return nil
	}
	variant, err := simulate(sw, seed, append(append([]string(nil), set...), vs...))
	if err != nil {
		return err
	}
	printRuns(w, []string{"base", "variant"}, []*outcome{base, variant})
	fmt.Fprintln(w)
	printTouched(w, base, variant)
	return nil
}

// simulate runs PushBox on the sweep's base with the changes applied.
func simulate(sw *experiment.Sweep, seed uint64, changes []string) (*outcome, error) {
	sc, err := sw.BaseScenario("pushbox", seed, changes)
	if err != nil {
		return nil, err
	}
	if sc.Scheduler.Name != "pushbox" {
		return nil, fmt.Errorf("scheduler %q: pbstats runs pushbox only", sc.Scheduler.Name)
	}
	built, err := sched.NewScheduler("pushbox", sc.Scheduler.Params)
	if err != nil {
		return nil, err
	}
	s := built.(*pushbox.Scheduler)
	res, err := sim.RunWith(sc, s)
	if err != nil {
		return nil, err
	}
	return &outcome{jobs: res.Jobs, sum: res.Summary, stats: s.Stats()}, nil
}

func printRuns(w io.Writer, names []string, outs []*outcome) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "run\tjobs\tJCT mean\tp95\tp99\tplacements\tbeneficiary\trefused\thindering\tat m\twildcard placed\twildcard denied\tdrops below m\tfull at drop\t")
	for i, o := range outs {
		st := o.stats
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.2f\t%.1f\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", names[i], o.sum.Jobs,
			o.sum.JCT.Mean, o.sum.JCT.P95, o.sum.JCT.P99, st.Placements, st.Beneficiary, st.Refused,
			st.Hindering, st.AtM, st.WildcardPlaced, st.WildcardDenied, st.Drops, st.DropsFull)
	}
	tw.Flush()
	for i, o := range outs {
		fmt.Fprintf(w, "%s: jobs with a task refused by the not-hinder test %d, hindering %d, admitted by the wildcard %d, denied the wildcard %d\n",
			names[i], countJobs(o, func(j pushbox.JobStats) int { return j.Refused }),
			countJobs(o, func(j pushbox.JobStats) int { return j.Hindering }),
			countJobs(o, func(j pushbox.JobStats) int { return j.WildcardPlaced }),
			countJobs(o, func(j pushbox.JobStats) int { return j.WildcardDenied }))
	}
}

func countJobs(o *outcome, f func(pushbox.JobStats) int) int {
	n := 0
	for _, j := range o.stats.Jobs {
		if f(j) > 0 {
			n++
		}
	}
	return n
}

// flips counts, per job, the jobs it overlapped with in the base run
// (arrival to finish) whose estimated coflow orders differently in the
// variant (ties by arrival, as PushBox ranks).
func flips(base, variant *outcome) (map[string]int, int, int) {
	per := map[string]int{}
	jobs := base.jobs
	pairs, flipped := 0, 0
	before := func(s pushbox.Stats, a, b int) bool {
		ca, cb := s.Jobs[jobs[a].ID].Coflow, s.Jobs[jobs[b].ID].Coflow
		if c := cmp.Compare(ca, cb); c != 0 {
			return c < 0
		}
		return jobs[a].Arrival < jobs[b].Arrival || jobs[a].Arrival == jobs[b].Arrival && a < b
	}
	for a := range jobs {
		for b := a + 1; b < len(jobs); b++ {
			if jobs[a].Finish <= jobs[b].Arrival || jobs[b].Finish <= jobs[a].Arrival {
				continue
			}
			pairs++
			if before(base.stats, a, b) != before(variant.stats, a, b) {
				flipped++
				per[jobs[a].ID]++
				per[jobs[b].ID]++
			}
		}
	}
	return per, pairs, flipped
}

// touch chooses which of a job's counters make it touched: the wildcard's
// when the variant denies it (W ablation), the not-hinder test's when the
// variant places hindering tasks (H ablation), any otherwise.
func touch(base, variant *outcome) (string, func(j pushbox.JobStats) bool) {
	switch {
	case variant.stats.WildcardDenied > 0 && base.stats.WildcardDenied == 0:
		return "admitted by the wildcard in the base or denied it in the variant",
			func(j pushbox.JobStats) bool { return j.WildcardPlaced > 0 || j.WildcardDenied > 0 }
	case variant.stats.Hindering > 0 && base.stats.Hindering == 0:
		return "refused by the not-hinder test in the base or placed failing it in the variant",
			func(j pushbox.JobStats) bool { return j.Refused > 0 || j.Hindering > 0 }
	}
	return "a counter of the job's own is non-zero in either run",
		func(j pushbox.JobStats) bool {
			return j.Refused > 0 || j.Hindering > 0 || j.WildcardPlaced > 0 || j.WildcardDenied > 0
		}
}

func printTouched(w io.Writer, base, variant *outcome) {
	per, pairs, flipped := flips(base, variant)
	fmt.Fprintf(w, "coflow order: %d of %d pairs of overlapping jobs flip (%d jobs in a flipped pair)\n", flipped, pairs, len(per))
	vjct := map[string]float64{}
	for _, j := range variant.jobs {
		vjct[j.ID] = j.JCT
	}
	if err := coflowErrors(w, base, variant); err != nil {
		fmt.Fprintln(w, err)
	}
	type acc struct {
		n, nt        int
		b, v, bt, vt float64
	}
	bins := map[string]*acc{}
	all, small := &acc{}, &acc{}
	// Estimation error: touched means in a flipped pair; otherwise by
	// the jobs' own counters.
	estimates := false
	for id, j := range base.stats.Jobs {
		if variant.stats.Jobs[id].Coflow != j.Coflow {
			estimates = true
		}
	}
	what, touchedBy := touch(base, variant)
	if estimates {
		fmt.Fprintln(w, "estimates differ: touched = in a flipped pair")
	} else {
		fmt.Fprintln(w, "estimates equal: touched = "+what)
	}
	for _, j := range base.jobs {
		bin := metrics.SizeBin(j.InputBytes + j.ShuffleBytes + j.DepBytes)
		if bins[bin] == nil {
			bins[bin] = &acc{}
		}
		t := per[j.ID] > 0
		if !estimates {
			t = touchedBy(base.stats.Jobs[j.ID]) || touchedBy(variant.stats.Jobs[j.ID])
		}
		accs := []*acc{bins[bin], all}
		if bin != metrics.SizeBins[len(metrics.SizeBins)-1].Name {
			accs = append(accs, small)
		}
		for _, a := range accs {
			a.n++
			a.b += j.JCT
			a.v += vjct[j.ID]
			if t {
				a.nt++
				a.bt += j.JCT
				a.vt += vjct[j.ID]
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bin\tjobs\tshare of JCT sum\tbase\tvariant\tchange\ttouched\tbase\tvariant\tchange\tuntouched change\t")
	row := func(name string, a *acc) {
		fmt.Fprintf(tw, "%s\t%d\t%.1f%%\t%.2f\t%.2f\t%s\t%d\t%s\t%s\t%s\t%s\t\n", name, a.n, 100*a.b/all.b, a.b/float64(a.n), a.v/float64(a.n),
			change(a.b, a.v), a.nt, mean(a.bt, a.nt), mean(a.vt, a.nt), change(a.bt, a.vt), change(a.b-a.bt, a.v-a.vt))
	}
	for _, b := range metrics.SizeBins {
		if a := bins[b.Name]; a != nil {
			row(b.Name, a)
		}
	}
	row("all", all)
	row("all <1TB", small)
	tw.Flush()
}

func mean(sum float64, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", sum/float64(n))
}

func change(b, v float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", 100*(v-b)/b)
}

// coflowErrors prints, per size bin, the median and largest factor by
// which the variant's coflow estimate is off from the base's (the exact
// size when the base runs with exact knowledge).
func coflowErrors(w io.Writer, base, variant *outcome) error {
	by := map[string][]float64{}
	for _, j := range base.jobs {
		b, v := base.stats.Jobs[j.ID].Coflow, variant.stats.Jobs[j.ID].Coflow
		if b == v || b <= 0 || v <= 0 {
			continue
		}
		bin := metrics.SizeBin(j.InputBytes + j.ShuffleBytes + j.DepBytes)
		by[bin] = append(by[bin], max(v/b, b/v))
	}
	if len(by) == 0 {
		return nil
	}
	fmt.Fprintln(w, "coflow estimate off by (variant vs base): median / max factor per bin")
	for _, b := range metrics.SizeBins {
		xs := by[b.Name]
		if len(xs) == 0 {
			continue
		}
		slices.Sort(xs)
		fmt.Fprintf(w, "  %-10s %3d jobs  median x%.2f  max x%.2f\n", b.Name, len(xs), xs[len(xs)/2], xs[len(xs)-1])
	}
	return nil
}
