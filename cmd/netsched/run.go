package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/netsched/netsched/internal/outdir"
	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
)

func newRunCmd() *cobra.Command {
	var schedName, out string
	var seed uint64
	var check, force bool
	cmd := &cobra.Command{
		Use:   "run [SCENARIO]",
		Short: "Simulate one scenario (the embedded default when no file is given)",
		Long: `Simulate a scenario file and write summary.json, jobs.csv and timing.json
(plus tasks.csv and timeline.csv when the scenario's output section asks)
into the output directory. Without a file, the embedded default scenario runs.
When the run succeeds its files replace those of the previous run in the
directory (a previous run's file the new run does not write is removed; a
failed run leaves them as they were). ` + outputRules,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var sc *scenario.Scenario
			var err error
			if len(args) == 1 {
				sc, err = scenario.Load(args[0])
			} else {
				sc, err = scenario.Default()
			}
			if err != nil {
				return err
			}
			if schedName != "" {
				sc.Scheduler = scenario.SchedulerSpec{Name: schedName}
				sc.File.Scheduler = sc.Scheduler
			}
			if cmd.Flags().Changed("seed") {
				sc.Seed, sc.File.Seed = seed, seed
			}
			if out != "" {
				sc.Output.Dir = out
			}
			sc.Check = sc.Check || check
			dir, err := outdir.Open(sc.Output.Dir, outdir.Options{Force: force}) // before the run, not after it
			if err != nil {
				return err
			}
			defer dir.Close()
			s, err := sched.NewScheduler(sc.Scheduler.Name, sc.Scheduler.Params)
			if err != nil {
				return err
			}
			prog := newProgressLine(cmd.ErrOrStderr())
			ctx, stop := interruptible(cmd.Context(), cmd.ErrOrStderr())
			res, err := sim.RunContext(ctx, sc, s, prog.report)
			stop()
			prog.end()
			if err != nil && len(args) == 1 {
				return fmt.Errorf("%s: %w", args[0], err) // the run's errors name the scenario file
			}
			if err != nil {
				return err
			}
			files, err := res.Files()
			if err != nil {
				return err
			}
			if err := dir.Replace(files); err != nil {
				return err
			}
			printSummary(cmd.OutOrStdout(), res)
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s to %s\n", strings.Join(outdir.Names(files), ", "), sc.Output.Dir)
			return nil
		},
	}
	cmd.Flags().StringVar(&schedName, "scheduler", "", "scheduler name (overrides the scenario; parameters are then defaults)")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "random seed (overrides the scenario)")
	cmd.Flags().StringVar(&out, "out", "", "output directory (overrides the scenario)")
	cmd.Flags().BoolVar(&check, "check", false, "assert invariants while running (slower)")
	addForceFlag(cmd, &force)
	return cmd
}

// printSummary is the short terminal table of a run.
func printSummary(w io.Writer, r *metrics.Result) {
	s := r.Summary
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "scheduler\t%s\n", s.Scheduler)
	fmt.Fprintf(tw, "jobs\t%d (%d tasks)\n", s.Jobs, s.Tasks)
	if s.StoppedAt > 0 || s.Interrupted {
		why := "engine.until"
		if s.Interrupted {
			why = "interrupted"
		}
		fmt.Fprintf(tw, "stopped (%s)\tat %s, %d arrived job(s) unfinished and left out\n", why, units.FormatDuration(s.StoppedAt), s.Unfinished)
	}
	fmt.Fprintf(tw, "JCT mean / p50 / p95 / p99 / max\t%s / %s / %s / %s / %s\n", units.FormatDuration(s.JCT.Mean),
		units.FormatDuration(s.JCT.P50), units.FormatDuration(s.JCT.P95), units.FormatDuration(s.JCT.P99), units.FormatDuration(s.JCT.Max))
	fmt.Fprintf(tw, "makespan\t%s\n", units.FormatDuration(s.Makespan))
	fmt.Fprintf(tw, "throughput\t%.4g jobs/s\n", s.Throughput)
	t := s.Bytes.Total
	fmt.Fprintf(tw, "bytes node-local / rack-local / cross-rack\t%s / %s / %s\n", units.FormatBytes(t.NodeLocal), units.FormatBytes(t.RackLocal), units.FormatBytes(t.CrossRack))
	if s.Bytes.OCS > 0 {
		fmt.Fprintf(tw, "bytes EPS / OCS\t%s / %s\n", units.FormatBytes(s.Bytes.EPS), units.FormatBytes(s.Bytes.OCS))
	}
	fmt.Fprintf(tw, "node locality\t%.1f%%\n", 100*s.NodeLocality)
	fmt.Fprintf(tw, "wall time\t%.3gs (%.3g events/s)\n", r.Timing.WallSeconds, r.Timing.EventsPerSecond)
	tw.Flush()
	if len(r.Jobs) <= 10 {
		for _, j := range r.Jobs {
			fmt.Fprintf(w, "  job %s: arrival %s, finish %s, JCT %s\n", j.ID, units.FormatDuration(j.Arrival), units.FormatDuration(j.Finish), units.FormatDuration(j.JCT))
		}
	}
}

// progressLine shows a long run's progress on stderr: rewritten in place on
// a terminal (about once a second), a log line every five seconds
// otherwise. Short runs print nothing.
type progressLine struct {
	w        io.Writer
	terminal bool
	shown    bool
	last     time.Time
}

func newProgressLine(w io.Writer) *progressLine {
	p := &progressLine{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

func (p *progressLine) report(s sim.Progress) {
	line := fmt.Sprintf("simulated %s, %d of %d arrived jobs done, %d events", units.FormatDuration(s.Now), s.JobsDone, s.JobsArrived, s.Events)
	if p.terminal {
		fmt.Fprintf(p.w, "\r%-80s", line)
		p.shown = true
		return
	}
	if now := time.Now(); now.Sub(p.last) >= 5*time.Second {
		p.last = now
		fmt.Fprintln(p.w, line)
	}
}

// end clears the in-place line.
func (p *progressLine) end() {
	if p.shown {
		fmt.Fprintf(p.w, "\r%-80s\r", "")
	}
}

// interruptible is parent cancelled by the first SIGINT or SIGTERM, so
// that a long run stops where it is and writes what finished; a second
// signal ends the process as usual. stop releases the signals.
func interruptible(parent context.Context, w io.Writer) (ctx context.Context, stop func()) {
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(parent)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	go func() {
		select {
		case <-sig:
			signal.Stop(sig) // the next signal kills as usual
			fmt.Fprintln(w, "\ninterrupted: stopping the run here and writing what finished (interrupt again to abort)")
			cancel()
		case <-quit:
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(quit)
		cancel()
	}
}
