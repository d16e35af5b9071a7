package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/netsched/netsched/experiment"
)

func init() { extraCommands = append(extraCommands, newMergeCmd) }

// newMergeCmd is `netsched merge DIR... [--out DIR]`.
func newMergeCmd() *cobra.Command {
	var out string
	var force bool
	cmd := &cobra.Command{
		Use:   "merge DIR... [--out DIR]",
		Short: "Join the parts of a sharded sweep into one results table",
		Long: `Find the shard parts (manifest-i-of-n.json with its part-i-of-n.csv and
cells-i-of-n.jsonl) in the given directories and join them into
results.csv, results.parquet, cells.jsonl and manifest.json: byte for byte
what the unsharded sweep writes. Cell directories found elsewhere are
copied into --out so that 'netsched report' can draw from them.

A missing shard or cell, or a shard found twice, is an error listing them;
nothing is written then. So is a part table with a repeated row or a value
that is not a finite number (naming the file and line), and a merge that
would replace results in --out of another sweep, or results newer than a
part that differ from the merge (a part left by an earlier run of the
sweep): remove those parts and merge again.

` + outputRules,
		Example: `  netsched merge out/shard-0 out/shard-1 out/shard-2 --out out/sweep
  netsched merge out/sweep      # shards that shared one output directory`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				out = args[0]
			}
			m, err := experiment.Merge(args, out, force)
			var me *experiment.MergeError
			if errors.As(err, &me) {
				return fmt.Errorf("%w\nrerun the missing shards (with --resume) or remove the duplicate directories, then merge again", err)
			}
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "merged %d cells of sweep %s into %s (%d failed)\n", len(m.Cells), m.Sweep, out, len(m.Failed()))
			if err := printFailedCells(w, m.Failed()); err != nil {
				return err
			}
			fmt.Fprintf(w, "next: netsched report %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "directory for the merged results (default: the first DIR)")
	addForceFlag(cmd, &force)
	return cmd
}
