package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/netsched/netsched/experiment"
)

func init() { extraCommands = append(extraCommands, newReproduceCmd) }

// newReproduceCmd is `netsched reproduce <paper>/<figure> [--out DIR]`.
func newReproduceCmd() *cobra.Command {
	var out, reportDir string
	var workers int
	var resume, list bool
	cmd := &cobra.Command{
		Use:   "reproduce PAPER/FIGURE [--out DIR] [--report-dir DIR]",
		Short: "Run a figure of the reproduction catalog and write its report",
		Long: `Run the catalog's sweep experiment/catalog/PAPER/FIGURE.yaml (built into the binary,
so this works from any directory) and write its report (report.html, the
figures, results.csv and the sweep file) into docs/reproductions/PAPER/FIGURE/
or --report-dir. The sweep's own outputs go to --out (default
out/reproduce/PAPER/FIGURE). --list shows the catalog.`,
		Example: `  netsched reproduce --list
  netsched reproduce delay/locality`,
		Args: func(cmd *cobra.Command, args []string) error {
			if list {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			w := cmd.OutOrStdout()
			if list {
				for _, name := range experiment.Catalog() {
					sw, err := experiment.LoadCatalog(name)
					if err != nil {
						fmt.Fprintf(w, "%s\t(not runnable in this build: %v)\n", name, err)
						continue
					}
					fmt.Fprintf(w, "%s\t%s\n", name, sw.Description)
				}
				return nil
			}
			name := strings.TrimSuffix(args[0], ".yaml")
			r, err := experiment.Reproduce(name, experiment.ReproduceOptions{ReportDir: reportDir,
				Options: experiment.Options{Out: out, Workers: workers, Resume: resume, Progress: cmd.ErrOrStderr()}})
			if err != nil {
				return err
			}
			m := r.Outcome.Manifest
			fmt.Fprintf(w, "%s: %d cells (%d ran, %d resumed, %d failed)\n", name, m.CellsTotal, r.Outcome.Ran, r.Outcome.Resumed, len(m.Failed()))
			if err := printFailedCells(w, m.Failed()); err != nil {
				return err
			}
			for _, s := range r.Report.Skipped {
				fmt.Fprintf(w, "not drawn: %s\n", s)
			}
			fmt.Fprintf(w, "wrote %s\n", filepath.Join(r.Report.Dir, "report.html"))
			if n := len(m.Failed()); n > 0 {
				return fmt.Errorf("%d of %d cells failed", n, m.CellsTotal)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "directory for the sweep's results (default out/reproduce/PAPER/FIGURE)")
	f.StringVar(&reportDir, "report-dir", "", "directory for the report (default docs/reproductions/PAPER/FIGURE)")
	f.IntVar(&workers, "workers", 0, "cells run at once (default: one per CPU)")
	f.BoolVar(&resume, "resume", false, "skip cells finished by an earlier run into the same --out")
	f.BoolVar(&list, "list", false, "list the catalog")
	return cmd
}
