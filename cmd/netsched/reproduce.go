package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/netsched/netsched/experiment"
)

func init() { extraCommands = append(extraCommands, newReproduceCmd) }

// newReproduceCmd is `netsched reproduce <paper>/<figure>` and
// `netsched reproduce --verify [TARGET]`.
func newReproduceCmd() *cobra.Command {
	var out, reportDir, data string
	var workers int
	var resume, list, verify, updateDocs, committed, force bool
	cmd := &cobra.Command{
		Use:   "reproduce PAPER/FIGURE | --verify [all|PAPER|PAPER/FIGURE]",
		Short: "Run a figure of the reproduction catalog, or check the papers' claims",
		Long: `Run the catalog's sweep experiment/catalog/PAPER/FIGURE.yaml (built into the binary)
and write its report (report.html, the figures, results.csv and the sweep file).
Everything goes under out/reproduce/PAPER/FIGURE (--out, --report-dir) unless
--update-docs asks to replace the committed report in docs/reproductions/.

--verify reruns the entries that the papers' claims read (all of them, one
paper's, or one entry's) and prints, per claim, the paper's value, netsched's
with its 95% interval over seeds, the verdict and the entry's cost. It writes
the ledger out/reproduce/claims.csv; with --update-docs it updates
docs/reproductions/claims.csv, the entries' reports and the claims tables of
the paper pages. --committed judges the committed results instead of
rerunning (seconds instead of hours).

Catalog entries read the public traces at ../shared/traces relative to the
repository root, from any directory inside the checkout; --data DIR (or
NETSCHED_DATA=DIR) reads each trace as DIR/<file name> instead. A missing
trace stops the run before any cell starts, naming the file.

` + outputRules,
		Example: `  netsched reproduce --list
  netsched reproduce delay/locality
  netsched reproduce --verify css --committed
  netsched reproduce --verify pushbox/queues-multi --update-docs`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case list:
				return cobra.NoArgs(cmd, args)
			case verify:
				return cobra.MaximumNArgs(1)(cmd, args)
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			w := cmd.OutOrStdout()
			if list {
				return listCatalog(w)
			}
			if data != "" {
				// One place decides where catalog traces are read:
				// LoadCatalog, from the environment (also seen by
				// cells run in other processes).
				if err := os.Setenv(experiment.DataEnv, data); err != nil {
					return err
				}
			}
			opts := experiment.Options{Out: out, Workers: workers, Resume: resume, Progress: cmd.ErrOrStderr(), Force: force}
			if verify {
				target := "all"
				if len(args) == 1 {
					target = strings.TrimSuffix(args[0], ".yaml")
				}
				if out != "" || reportDir != "" {
					return fmt.Errorf("--verify writes each entry under out/reproduce/PAPER/FIGURE; --out and --report-dir name one entry's directories")
				}
				return verifyClaims(w, target, verifyOptions{run: opts, updateDocs: updateDocs, committed: committed})
			}
			if committed {
				return fmt.Errorf("--committed goes with --verify")
			}
			name := strings.TrimSuffix(args[0], ".yaml")
			if updateDocs {
				if reportDir != "" {
					return fmt.Errorf("--update-docs writes docs/reproductions/%s; --report-dir names another directory", name)
				}
				root, err := experiment.RepoRoot()
				if err != nil {
					return err
				}
				reportDir = experiment.DocsDir(root, name)
			}
			_, err := reproduceOne(w, name, experiment.ReproduceOptions{ReportDir: reportDir, Options: opts})
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "directory for the sweep's results (default out/reproduce/PAPER/FIGURE)")
	f.StringVar(&reportDir, "report-dir", "", "directory for the report (default OUT/report)")
	f.StringVar(&data, "data", "", "directory holding the catalog's traces (default ../shared/traces beside the checkout; also NETSCHED_DATA)")
	f.IntVar(&workers, "workers", 0, "cells run at once (default: one per CPU)")
	f.BoolVar(&resume, "resume", false, "skip cells finished by an earlier run into the same --out")
	addForceFlag(cmd, &force)
	f.BoolVar(&list, "list", false, "list the catalog")
	f.BoolVar(&verify, "verify", false, "judge the papers' claims (all, a paper or an entry) and write the ledger claims.csv")
	f.BoolVar(&updateDocs, "update-docs", false, "replace the committed reports, docs/reproductions/claims.csv and the pages' claims tables")
	f.BoolVar(&committed, "committed", false, "with --verify: judge the committed results in docs/reproductions instead of rerunning")
	return cmd
}

func listCatalog(w io.Writer) error {
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

// reproduceOne runs one entry and reports what it wrote.
func reproduceOne(w io.Writer, name string, opts experiment.ReproduceOptions) (*experiment.Reproduction, error) {
	r, err := experiment.Reproduce(name, opts)
	if err != nil {
		return nil, err
	}
	m := r.Outcome.Manifest
	fmt.Fprintf(w, "%s: %d cells (%d ran, %d resumed, %d failed)\n", name, m.CellsTotal, r.Outcome.Ran, r.Outcome.Resumed, len(m.Failed()))
	if err := printFailedCells(w, m.Failed()); err != nil {
		return nil, err
	}
	for _, s := range r.Report.Skipped {
		fmt.Fprintf(w, "not drawn: %s\n", s)
	}
	fmt.Fprintf(w, "wrote %s\n", filepath.Join(r.Report.Dir, "report.html"))
	if n := len(m.Failed()); n > 0 {
		return nil, fmt.Errorf("%d of %d cells failed", n, m.CellsTotal)
	}
	return r, nil
}
