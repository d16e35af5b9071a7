package main

import (
	"fmt"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/trace/calibrate"
)

func init() { extraCommands = append(extraCommands, newCalibrateCmd) }

// newCalibrateCmd is `netsched calibrate FILE...`.
func newCalibrateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "calibrate FILE...",
		Short: "Fit task compute time = overhead + bytes / rate to a task log",
		Long: `Read task logs and fit, per task kind, compute seconds = overhead +
bytes / rate by least squares (overhead >= 0, rate > 0). Prints the fits,
their tasks, R^2 and residual spread, and the SWIM importer's options for
the map and reduce kinds, ready to paste under workload:.

A FILE is netsched's tasks.csv (or a run directory holding one: kind = the
stage, bytes = input_bytes, seconds = finish - input_done) or a CSV with
the header kind,bytes,seconds, where bytes and seconds may carry units
(128MB, 1.5s). Files are streamed; all files feed one fit per kind.

Degenerate fits are reported, not hidden: every task with the same bytes
(or a single task) gives the mean time as overhead and no rate; a free
fit with a negative overhead or slope is replaced by the better of a fit
through the origin (overhead 0) and a constant (unbounded rate: the time
does not grow with bytes). Kinds without a finite rate are left out of the
options line. See docs/workloads.md, "Calibrating task times".`,
		Example: `  netsched calibrate out/run/tasks.csv
  netsched calibrate measured.csv     # kind,bytes,seconds`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var fit calibrate.Fitter
			w := cmd.OutOrStdout()
			for _, path := range args {
				format, n, err := calibrate.ReadFile(path, &fit)
				if err != nil {
					return err
				}
				fmt.Fprintf(w, "%s: %d tasks (%s)\n", path, n, format)
			}
			fits := fit.Fits()
			fmt.Fprintln(w)
			tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
			fmt.Fprintln(tw, "kind\ttasks\toverhead\trate\tR^2\trms residual\tmean time\tbytes min..max")
			for _, f := range fits {
				fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%ss\t%ss\t%s..%s\n", f.Kind, f.N,
					withErr(calibrate.SecondsString(f.Overhead), f.OverheadErr, 1, "s"),
					rateCell(f), g4(f.R2), g4(f.RMS), g4(f.MeanSeconds),
					units.FormatBytes(f.MinBytes), units.FormatBytes(f.MaxBytes))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			for _, f := range fits {
				if f.Note != "" {
					fmt.Fprintf(w, "%s: %s\n", f.Kind, f.Note)
				}
			}
			fmt.Fprintln(w)
			if line, ok := calibrate.Options(fits); ok {
				fmt.Fprintln(w, "SWIM importer options (paste under workload:):")
				fmt.Fprintln(w, "  "+line)
			} else {
				fmt.Fprintln(w, "no map or reduce kind with a finite rate: no SWIM importer options to suggest")
			}
			return nil
		},
	}
}

func rateCell(f calibrate.Fit) string {
	switch {
	case math.IsNaN(f.Rate):
		return "-"
	case math.IsInf(f.Rate, 1):
		return "unbounded"
	}
	return withErr(calibrate.RateString(f.Rate), f.RateErr, 1e6, "MB/s")
}

// withErr appends "± err" (two significant digits, in unit after dividing
// by scale) when a standard error is known.
func withErr(v string, err, scale float64, unit string) string {
	if math.IsNaN(err) || math.IsInf(err, 0) {
		return v
	}
	return v + " ± " + strconv.FormatFloat(err/scale, 'g', 2, 64) + unit
}

func g4(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
