// Command nasstats runs NAS on a sweep's base scenario and prints the
// counters of its mechanisms (nas.Stats: how often MTS's budget changed or
// blocked a map pick, how often CA-RTS placed another job's reducer than
// the MTS-only order would have, CR-RTS's activations and the congestion
// they saw) and, per shuffle class, the jobs each mechanism touched with
// their mean JCT. With a variant (-vs), the same jobs' mean JCT
// in the variant is printed next to the base's.
//
// The counters are not part of a run directory, so nasstats runs the
// scenario itself, in process, like cmd/pbstats: the sweep's base document
// with `scheduler: {name: nas}` and the seed, changed by -set.
//
// Usage:
//
//	nasstats [-seed 1] [-every 1h] [-jobs=false] [-set PATH=VALUE]... [-vs PATH=VALUE]... SWEEP
//
// SWEEP is a catalog entry (nas/schedulers) or a sweep file. -set changes
// every run (workload.options.max_jobs=2000,
// scheduler.params.light_shuffle=0.1MB); -vs changes the variant only
// (scheduler.params.ca_rts=false, scheduler.name=fair). A variant that is
// not NAS has no counters. -every adds the base's counters per period of
// simulated time (what each added in the period); -jobs=false leaves out
// the per-job counters, which cost a visit of every job concerned at each
// map request.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/netsched/netsched/experiment"
	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/nas"
	"github.com/netsched/netsched/sim"
	_ "github.com/netsched/netsched/trace/register"
)

func main() {
	seed := flag.Uint64("seed", 1, "scenario seed (the sweep's cells use 1..seeds)")
	every := flag.String("every", "", "also print the base's counters per period of simulated time (e.g. 1h)")
	perJob := flag.Bool("jobs", true, "count per job which mechanism touched it, and print the table by class (costs a visit of each job concerned per request)")
	var set, vs experiment.Changes
	flag.Var(&set, "set", "PATH=VALUE: change the scenario document of every run (repeatable)")
	flag.Var(&vs, "vs", "PATH=VALUE: change the variant's document (repeatable); without it only the base runs")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: nasstats [-seed N] [-set PATH=VALUE]... [-vs PATH=VALUE]... SWEEP")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	period := 0.0
	if *every != "" {
		d, err := units.ParseDuration(*every)
		if err != nil || !(d > 0) {
			fmt.Fprintf(os.Stderr, "nasstats: -every: expected a duration > 0, like 1h, got %q\n", *every)
			os.Exit(2)
		}
		period = d
	}
	if err := run(os.Stdout, flag.Arg(0), *seed, set, vs, options{every: period, perJob: *perJob}); err != nil {
		fmt.Fprintln(os.Stderr, "nasstats:", err)
		os.Exit(1)
	}
}

// outcome is one run: its jobs, summary and, under NAS, its counters.
type outcome struct {
	jobs   []metrics.JobRecord
	sum    metrics.Summary
	stats  *nas.Stats
	series []sample // counters over time (-every)
}

// sample is the counters at a time, and the containers then.
type sample struct {
	now               float64
	st                nas.Stats
	used, maps, early int    // containers taken; by maps; by NAS's early reducers
	largest           string // the job holding the most containers
	largestN          int
}

// options are the flags that change what is counted.
type options struct {
	every  float64 // seconds between samples of the base's counters; 0: none
	perJob bool    // per-job counters and their table
}

func run(w io.Writer, name string, seed uint64, set, vs []string, o options) error {
	sw, err := experiment.LoadFileOrCatalog(name)
	if err != nil {
		return err
	}
	base, err := simulate(sw, seed, set, o)
	if err != nil {
		return err
	}
	var variant *outcome
	if len(vs) > 0 {
		if variant, err = simulate(sw, seed, append(append([]string(nil), set...), vs...), options{perJob: o.perJob}); err != nil {
			return err
		}
	}
	printRun(w, "base", base)
	if variant != nil {
		printRun(w, "variant", variant)
	}
	if base.stats != nil && o.perJob {
		fmt.Fprintln(w)
		printTouched(w, base, variant)
	}
	if len(base.series) > 0 {
		fmt.Fprintln(w)
		printSeries(w, base)
	}
	return nil
}

// simulate runs the sweep's base (scheduler nas unless changed) with the
// changes applied.
func simulate(sw *experiment.Sweep, seed uint64, changes []string, o options) (*outcome, error) {
	sc, err := sw.BaseScenario("nas", seed, changes)
	if err != nil {
		return nil, err
	}
	built, err := sched.NewScheduler(sc.Scheduler.Name, sc.Scheduler.Params)
	if err != nil {
		return nil, err
	}
	out := &outcome{}
	if s, ok := built.(*nas.Scheduler); ok {
		if o.perJob {
			s.CountPerJob()
		}
		if o.every > 0 {
			s.SampleEvery(o.every, func(v sched.View, st nas.Stats) {
				smp := sample{now: v.Now(), st: st}
				smp.maps, smp.early = s.Running()
				for m := range v.NumMachines() {
					smp.used += v.Machine(m).Slots() - v.Machine(m).Free()
				}
				for _, j := range v.Jobs() {
					if j.Running() > smp.largestN {
						smp.largest, smp.largestN = j.ID(), j.Running()
					}
				}
				out.series = append(out.series, smp)
			})
		}
	}
	res, err := sim.RunWith(sc, built)
	if err != nil {
		return nil, err
	}
	out.jobs, out.sum = res.Jobs, res.Summary
	if s, ok := built.(*nas.Scheduler); ok {
		st := s.Stats()
		out.stats = &st
	}
	return out, nil
}

// printSeries gives, per period, the containers at its end (taken, by
// running maps, by NAS's early reducers: reducers of jobs with maps
// waiting, and by the job holding most), what each counter added in the
// period, and the jobs that finished in it.
func printSeries(w io.Writer, o *outcome) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "until\tcontainers taken\tby maps\tby early reducers\tlargest job\tjobs done\tmap requests\tbudget refused all local\tskips\tat D^m\theld requests\thold ticks\treduce requests congested\tCR light\tCR skipped\tCR forced\tCA-RTS\t")
	var prev sample
	for _, smp := range o.series {
		done := 0
		for _, j := range o.jobs {
			if j.Finish > prev.now && j.Finish <= smp.now {
				done++
			}
		}
		a, b := smp.st, prev.st
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s: %d\t%d\t%d\t%d\t%d\t%d\t%d\t%d of %d\t%d\t%d\t%d\t%d\t%d\t\n", units.FormatDuration(smp.now),
			smp.used, smp.maps, smp.early, smp.largest, smp.largestN, done,
			a.MapRequests-b.MapRequests, a.BudgetSkipped-b.BudgetSkipped, a.MapSkipsCount-b.MapSkipsCount, a.AtMapSkips-b.AtMapSkips,
			a.Held-b.Held, a.HoldTicks-b.HoldTicks, a.Samples-b.Samples, a.Activations-b.Activations,
			a.CRRTSLight-b.CRRTSLight, a.CRRTSSkipped-b.CRRTSSkipped, a.CRRTSForced-b.CRRTSForced, a.CARTS-b.CARTS)
		prev = smp
	}
	tw.Flush()
}

func printRun(w io.Writer, name string, o *outcome) {
	s := o.sum
	fmt.Fprintf(w, "%s: %d jobs, throughput %.4f jobs/s, mean JCT %.1f s, makespan %.0f s, congested %d of %d samples\n",
		name, len(o.jobs), s.Throughput, s.JCT.Mean, s.Makespan, s.Congested, s.MonitorSamples)
	st := o.stats
	if st == nil {
		return
	}
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
	}
	fmt.Fprintf(w, "  MTS: %d map requests; budget changed the local pick %d (%s), refused every local map %d (%s); skips %d; launched at D^m %d; requests held by CR-RTS %d\n",
		st.MapRequests, st.BudgetChanged, pct(st.BudgetChanged, st.MapRequests), st.BudgetSkipped, pct(st.BudgetSkipped, st.MapRequests),
		st.MapSkipsCount, st.AtMapSkips, st.Held)
	fmt.Fprintf(w, "  CA-RTS: %d reducers; %d (%s) of a job under its ReduceNum on the rack; %d (%s) of another job than the MTS-only order\n",
		st.CARTS, st.CARTSUnder, pct(st.CARTSUnder, st.CARTS), st.CARTSMoved, pct(st.CARTSMoved, st.CARTS))
	mean := 0.0
	if st.Activations > 0 {
		mean = st.CongestionSum / float64(st.Activations)
	}
	fmt.Fprintf(w, "  CR-RTS: %d reduce requests while congested (mean utilisation %.3f); light reducers %d, user skipped %d, forced at D^r %d; hold on %d of %d ticks (%s)\n",
		st.Activations, mean, st.CRRTSLight, st.CRRTSSkipped, st.CRRTSForced, st.HoldTicks, st.Samples, pct(st.HoldTicks, st.Samples))
}

// printTouched gives, per NAS class of the job when last touched (light,
// medium, heavy; "-" for untouched jobs), the jobs each mechanism touched
// in the base run and their mean JCT in the base and the variant.
func printTouched(w io.Writer, base, variant *outcome) {
	vj := map[string]float64{}
	if variant != nil {
		for _, j := range variant.jobs {
			vj[j.ID] = j.JCT
		}
	}
	type agg struct {
		n      int
		b, v   float64
		nv     int
		anyHit bool
	}
	mechs := []struct {
		name string
		hit  func(*nas.JobStats) bool
	}{
		{"MTS budget refused a local map", func(s *nas.JobStats) bool { return s.BudgetRefused > 0 }},
		{"maps held by CR-RTS", func(s *nas.JobStats) bool { return s.Held > 0 }},
		{"CA-RTS took its reducer out of order", func(s *nas.JobStats) bool { return s.CARTSMoved > 0 }},
		{"CA-RTS passed over its reducer", func(s *nas.JobStats) bool { return s.CARTSDisplaced > 0 }},
		{"CR-RTS delayed its reducer", func(s *nas.JobStats) bool { return s.CRDelayed > 0 }},
		{"untouched", nil},
	}
	classes := []string{"light", "medium", "heavy"}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "mechanism\tclass\tjobs\tmean JCT base"
	if variant != nil {
		head += "\tmean JCT variant\tchange"
	}
	fmt.Fprintln(tw, head)
	for _, m := range mechs {
		by := map[string]*agg{}
		for _, j := range base.jobs {
			js := base.stats.Jobs[j.ID]
			var cls string
			if m.hit == nil {
				if js != nil && (js.BudgetRefused+js.Held+js.CARTSMoved+js.CARTSDisplaced+js.CRDelayed) > 0 {
					continue
				}
				cls = "all"
			} else {
				if js == nil || !m.hit(js) {
					continue
				}
				cls = classes[js.Class]
			}
			a := by[cls]
			if a == nil {
				a = &agg{}
				by[cls] = a
			}
			a.n++
			a.b += j.JCT
			if v, ok := vj[j.ID]; ok {
				a.v += v
				a.nv++
			}
		}
		for _, cls := range append(classes, "all") {
			a := by[cls]
			if a == nil {
				continue
			}
			row := fmt.Sprintf("%s\t%s\t%d\t%.1f", m.name, cls, a.n, a.b/float64(a.n))
			if variant != nil && a.nv > 0 {
				vm := a.v / float64(a.nv)
				row += fmt.Sprintf("\t%.1f\t%+.1f%%", vm, 100*(vm/(a.b/float64(a.n))-1))
			}
			fmt.Fprintln(tw, row)
		}
	}
	tw.Flush()
}
