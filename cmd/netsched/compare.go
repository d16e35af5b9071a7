package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/netsched/netsched/experiment"
	"github.com/netsched/netsched/report"
)

func init() { extraCommands = append(extraCommands, newCompareCmd) }

// newCompareCmd is `netsched compare [SCENARIO] [--schedulers a,b,c]
// [--seeds N] [--out DIR]`: the README's main command.
func newCompareCmd() *cobra.Command {
	var schedulers, out string
	var seeds, workers int
	var noReport, force bool
	cmd := &cobra.Command{
		Use:   "compare [SCENARIO] [--schedulers a,b,c] [--seeds N]",
		Short: "Run one scenario under several schedulers and print a normalized table",
		Long: `Run the scenario (the embedded default when no file is given) under each
scheduler, in parallel, and print mean, p95 and p99 JCT, makespan, throughput
and cross-rack bytes normalized to the first scheduler, then the absolute
values. Without --schedulers, every registered scheduler that builds with
its default parameters runs (fifo first, as the baseline); one that fails on
the scenario is left out with a note.

--seeds N runs seeds s, s+1, ..., s+N-1 from the scenario's seed s and
averages. The output directory gets the tidy results (results.csv and
.parquet, one row per run and metric), each run's files under cells/, and
report.html with the figures (see 'netsched report').

` + outputRules,
		Example: `  netsched compare
  netsched compare scenarios/x.yaml --schedulers fifo,fair,delay --seeds 5`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if seeds < 1 {
				return fmt.Errorf("--seeds %d: expected at least 1 run per scheduler", seeds)
			}
			if err := checkWorkers(cmd, workers); err != nil {
				return err
			}
			opts := experiment.CompareOptions{Seeds: seeds, NoReport: noReport,
				Options: experiment.Options{Out: out, Workers: workers, Progress: cmd.ErrOrStderr(), Force: force}}
			if len(args) == 1 {
				opts.Scenario = args[0]
			}
			for _, s := range strings.Split(schedulers, ",") {
				if s = strings.TrimSpace(s); s != "" {
					opts.Schedulers = append(opts.Schedulers, s)
				}
			}
			c, err := experiment.Compare(opts)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			seeds := c.Outcome.Manifest.Seeds
			seedText := fmt.Sprint(" ", seeds[0])
			if len(seeds) > 1 {
				seedText = fmt.Sprintf("s %d-%d", seeds[0], seeds[len(seeds)-1])
			}
			fmt.Fprintf(w, "scenario %s: %d schedulers, seed%s\n\n", c.Sweep.Name, len(c.Sweep.Schedulers), seedText)
			if err := report.WriteComparison(w, c.Rows, experiment.CompareMetrics); err != nil {
				return err
			}
			fmt.Fprintln(w)
			for _, n := range c.Notes {
				fmt.Fprintf(w, "note: %s\n", n)
			}
			if c.Report != nil {
				fmt.Fprintf(w, "wrote results.csv, results.parquet, cells/, figures/ and %s\n", filepath.Join(c.Dir, "report.html"))
			} else {
				fmt.Fprintf(w, "wrote results.csv, results.parquet and cells/ to %s\n", c.Dir)
			}
			if len(c.Failed) > 0 {
				return fmt.Errorf("scheduler(s) %s failed on this scenario", strings.Join(c.Failed, ", "))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&schedulers, "schedulers", "", "comma-separated schedulers; the first is the baseline (default: every registered one, fifo first)")
	f.IntVar(&seeds, "seeds", 1, "runs per scheduler, with consecutive seeds from the scenario's (schedulers x seeds at most 100,000)")
	f.StringVar(&out, "out", "", "output directory (default out/compare-<scenario name>)")
	f.IntVar(&workers, "workers", 0, "runs at once (default: one per CPU)")
	f.BoolVar(&noReport, "no-report", false, "skip report.html and the figures")
	addForceFlag(cmd, &force)
	return cmd
}
