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

func init() { extraCommands = append(extraCommands, newSweepCmd) }

// newSweepCmd is `netsched sweep SWEEP.yaml [--out DIR] [--workers N]
// [--resume] [--shard i/n | --shards n]`.
func newSweepCmd() *cobra.Command {
	var out, shard string
	var workers, shards int
	var resume, force bool
	cmd := &cobra.Command{
		Use:   "sweep SWEEP.yaml",
		Short: "Run a grid of scenarios x schedulers x seeds in parallel into one tidy table",
		Long: `Expand a sweep file into cells (grid values x schedulers x seeds, in a fixed
order), run them in parallel and write:

  results.csv, results.parquet   one row per cell and metric
  cells.jsonl                    every cell's resolved configuration
  manifest.json                  the sweep's shape and each cell's status
  cells/<id>/                    each run's files (summary.json, jobs.csv, ...)

A cell that fails (say, an invalid value) is recorded with its error and the
sweep goes on; the command then exits with status 1. --resume skips cells
whose cells/<id>/summary.json exists.

Sharding: --shard i/n (0-based) runs the cells whose index modulo n is i and
writes part-i-of-n.{csv,parquet}, cells-i-of-n.jsonl and manifest-i-of-n.json;
join the parts with 'netsched merge'. Without --shard, the shard comes from
JOB_COMPLETION_INDEX (Kubernetes Indexed Job; count from --shards or
NETSCHED_SHARDS), SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT (Slurm job array)
or AWS_BATCH_JOB_ARRAY_INDEX (count from --shards, NETSCHED_SHARDS or
AWS_BATCH_JOB_ARRAY_SIZE). See docs/experiments.md and docs/scale-out.md.

` + outputRules,
		Example: `  netsched sweep experiment/catalog/delay/locality.yaml --out out/locality
  netsched report out/locality`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkWorkers(cmd, workers); err != nil {
				return err
			}
			sw, err := experiment.Load(args[0])
			if err != nil {
				return err
			}
			sh, err := sweepShard(shard, shards, os.Getenv)
			if err != nil {
				return err
			}
			if out == "" {
				out = filepath.Join("out", "sweep-"+strings.NewReplacer("/", "-", " ", "_").Replace(sw.Name))
			}
			o, err := experiment.Run(sw, experiment.Options{Out: out, Workers: workers, Resume: resume, Shard: sh, Progress: cmd.ErrOrStderr(), Force: force})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			m := o.Manifest
			where := fmt.Sprintf("%d cells", m.CellsTotal)
			if m.Shard != nil {
				where = fmt.Sprintf("shard %s: %d of %d cells", sh, len(m.Cells), m.CellsTotal)
			}
			fmt.Fprintf(w, "sweep %s (%s): %d ran, %d resumed, %d failed\n", sw.Name, where, o.Ran, o.Resumed, len(m.Failed()))
			fmt.Fprintf(w, "wrote %s to %s\n", strings.Join(o.Files, ", "), out)
			if err := printFailedCells(w, m.Failed()); err != nil {
				return err
			}
			if m.Shard == nil {
				fmt.Fprintf(w, "next: netsched report %s\n", out)
			} else {
				fmt.Fprintf(w, "next, once every shard is done: netsched merge DIR... --out MERGED\n")
			}
			if n := len(m.Failed()); n > 0 {
				return fmt.Errorf("%d of %d cells failed; their errors are in %s", n, len(m.Cells), filepath.Join(out, o.ManifestFile))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "output directory (default out/sweep-<name>)")
	f.IntVar(&workers, "workers", 0, "cells run at once (default: one per CPU)")
	f.BoolVar(&resume, "resume", false, "skip cells finished by an earlier run into the same --out")
	f.StringVar(&shard, "shard", "", "run only shard i of n (0-based), e.g. 2/8; default from the batch system's environment")
	addForceFlag(cmd, &force)
	f.IntVar(&shards, "shards", 0, "number of shards when the index comes from the environment (JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX)")
	return cmd
}

// sweepShard resolves --shard, --shards and the batch systems' variables.
func sweepShard(flag string, count int, getenv func(string) string) (experiment.Shard, error) {
	if flag != "" {
		s, err := experiment.ParseShard(flag)
		if err == nil && count > 0 && count != s.Count {
			err = fmt.Errorf("--shard %s and --shards %d disagree", flag, count)
		}
		return s, err
	}
	s, ok, err := experiment.ShardFromEnv(getenv, count)
	if err != nil {
		return s, err
	}
	if !ok && count > 1 {
		return s, fmt.Errorf("--shards %d needs a shard index: --shard i/%d, or JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX", count, count)
	}
	return s, nil
}

// printFailedCells lists failed cells (the first ten) with their errors.
func printFailedCells(w io.Writer, failed []experiment.CellStatus) error {
	for i, c := range failed {
		if i == 10 {
			_, err := fmt.Fprintf(w, "  ... and %d more\n", len(failed)-10)
			return err
		}
		if _, err := fmt.Fprintf(w, "  failed cell %d (%s, %s): %s\n", c.Index, c.ID, c.Scheduler, c.Error); err != nil {
			return err
		}
	}
	return nil
}

// checkWorkers rejects an explicit --workers below 1 (leaving the flag out
// means one per CPU).
func checkWorkers(cmd *cobra.Command, workers int) error {
	if cmd.Flags().Changed("workers") && workers < 1 {
		return fmt.Errorf("--workers %d: expected at least 1 (leave the flag out for one per CPU)", workers)
	}
	return nil
}
