package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/netsched/netsched/experiment"
	"github.com/netsched/netsched/report"
)

func init() { extraCommands = append(extraCommands, newReportCmd) }

// newReportCmd is `netsched report RESULTS [--format html|png|svg]`.
func newReportCmd() *cobra.Command {
	var format, out, baseline, at string
	cmd := &cobra.Command{
		Use:   "report RESULTS_DIR [--format html|png|svg]",
		Short: "Draw the figures of a sweep or comparison and write an HTML report",
		Long: `Read RESULTS_DIR (the output of sweep, merge, compare or reproduce) and draw:
a CDF of job completion time per scheduler, mean/p95/p99 JCT normalized to a
baseline, mean JCT per job-size bin normalized to the baseline, one line plot
per swept parameter and metric (mean over seeds, error bars of one standard
deviation), the cross-rack utilization over time, and for runs of at most 200
tasks a Gantt chart of slots with each task's input and compute phases.

--format html (default) writes report.html, which embeds every figure and
table and opens without a network, plus figures/*.png; png and svg write only
the figures. The single-run figures use one grid point: --at (default: the
sweep file's report.at, else each parameter's first value).`,
		Example: `  netsched report out/locality
  netsched report out/locality --format svg --baseline fair --at scheduler.params.skips=10`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			res, err := report.LoadResults(dir)
			if err != nil {
				return err
			}
			opts := report.Options{Out: out, Format: format, Baseline: baseline, Title: "netsched report: " + filepath.Base(filepath.Clean(dir))}
			if m, err := experiment.ReadManifest(dir); err == nil {
				opts.Title, opts.Description = "netsched report: "+m.Sweep, m.Description
				if opts.Baseline == "" {
					opts.Baseline = m.Report.Baseline
				}
				opts.At = maps.Clone(m.Report.At)
			} else if !os.IsNotExist(err) {
				return err
			}
			if at != "" {
				if opts.At, err = parseAt(at, opts.At); err != nil {
					return err
				}
			}
			rep, err := report.Generate(res, opts)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			for _, s := range rep.Skipped {
				fmt.Fprintf(w, "not drawn: %s\n", s)
			}
			fmt.Fprintf(w, "wrote %d figures", len(rep.Figures))
			if format == "" || format == "html" {
				fmt.Fprintf(w, " and %s", filepath.Join(rep.Dir, "report.html"))
			}
			fmt.Fprintf(w, " to %s\n", rep.Dir)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "html", "html (page with embedded PNGs), png or svg")
	f.StringVar(&out, "out", "", "directory for the report (default RESULTS_DIR)")
	f.StringVar(&baseline, "baseline", "", "scheduler to normalize to (default: the sweep's report.baseline, else the first)")
	f.StringVar(&at, "at", "", "grid point of the single-run figures: key=value[,key=value]")
	return cmd
}

// parseAt reads key=value pairs over the defaults.
func parseAt(text string, def map[string]string) (map[string]string, error) {
	at := maps.Clone(def)
	if at == nil {
		at = map[string]string{}
	}
	for _, kv := range strings.Split(text, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--at %q: expected key=value[,key=value]", text)
		}
		at[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return at, nil
}
