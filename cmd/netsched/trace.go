package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/netsched/netsched/trace/inspect"
	"github.com/netsched/netsched/trace/jobmodel"
)

func init() { extraCommands = append(extraCommands, newTraceCmd) }

// traceFlags are the input flags inspect and convert share.
type traceFlags struct {
	from, generate, scenario string
	options                  []string
	seed                     uint64
}

func (f *traceFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.from, "from", "", "input format: swim, coflow, native (default: by extension .tsv, .txt, .yaml/.jsonl)")
	cmd.Flags().StringVar(&f.generate, "generate", "", "use a generator (synthetic, fb2010, workflow, multistage) instead of a file")
	cmd.Flags().StringArrayVarP(&f.options, "option", "o", nil, "importer or generator option key=value (YAML value; repeatable), as under workload.options")
	cmd.Flags().StringVar(&f.scenario, "scenario", "", "size jobs for this scenario's cluster, DFS and seed (default: no cluster, built-in defaults)")
	cmd.Flags().Uint64Var(&f.seed, "seed", 0, "seed for generators and random labels (default: the scenario's)")
}

func (f *traceFlags) input(cmd *cobra.Command, args []string) (inspect.Input, error) {
	opts, err := inspect.ParseOptions(f.options)
	if err != nil {
		return inspect.Input{}, err
	}
	in := inspect.Input{Format: f.from, Generate: f.generate, Options: opts, Scenario: f.scenario}
	if len(args) == 1 {
		in.Path = args[0]
	}
	if cmd.Flags().Changed("seed") {
		in.Seed = &f.seed
	}
	return in, nil
}

func newTraceCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trace",
		Short: "Look at and convert workloads: SWIM, coflow-benchmark, native traces and generators",
	}
	cmd.AddCommand(newTraceInspectCmd(), newTraceConvertCmd())
	return cmd
}

func newTraceInspectCmd() *cobra.Command {
	var f traceFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "inspect [FILE]",
		Short: "Print a workload's statistics: jobs, arrivals, byte and task percentiles, class mix",
		Long: `Print a workload's statistics: job count, arrival span and rate, percentiles
(p10/p50/p90/p99/max, nearest rank) of input, shuffle and output bytes and of
task counts, the map-only share and class mixes; for a coflow-benchmark trace
also coflow width and length. Jobs are built exactly as ` + "`netsched run`" + ` builds
them, so importer options (-o) change what is shown.`,
		Example: `  netsched trace inspect ../shared/traces/FB-2010_samples_24_times_1hr_0.tsv
  netsched trace inspect FB2010-1Hr-150-0.txt --from coflow --json
  netsched trace inspect --generate fb2010 -o seed=3`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := f.input(cmd, args)
			if err != nil {
				return err
			}
			st, err := inspect.Inspect(in)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(st)
			}
			return st.WriteTable(out)
		},
	}
	f.add(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}

func newTraceConvertCmd() *cobra.Command {
	var f traceFlags
	var to string
	cmd := &cobra.Command{
		Use:   "convert [IN] --to OUT.yaml|OUT.jsonl",
		Short: "Write a trace or generated workload in the native format that scenarios read",
		Long: `Write a trace (or a generator's workload) as netsched's native job list, the
format of a scenario's workload.jobs: YAML for editing by hand, JSONL (one job
per line, streamed) for long traces. Use it with workload: {trace: OUT}.
Running the converted file gives the same results as running the original.`,
		Example: `  netsched trace convert FB-2010_samples_24_times_1hr_0.tsv --from swim --to fb2010.jsonl -o users=200
  netsched trace convert FB2010-1Hr-150-0.txt --from coflow --to coflows.yaml --scenario cluster.yaml`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := f.input(cmd, args)
			if err != nil {
				return err
			}
			ext := strings.ToLower(filepath.Ext(to))
			if ext != ".yaml" && ext != ".yml" && ext != ".jsonl" {
				return fmt.Errorf("--to %q: the output must end in .yaml, .yml or .jsonl", to)
			}
			src, err := in.Open()
			if err != nil {
				return err
			}
			tmp := to + ".tmp"
			w, err := os.Create(tmp)
			if err != nil {
				return err
			}
			n, err := jobmodel.WriteNative(w, src, ext == ".jsonl")
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			if err == nil {
				err = os.Rename(tmp, to) // never leave a half-written trace under the real name
			}
			if err != nil {
				os.Remove(tmp)
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %d jobs to %s\n", n, to)
			return nil
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&to, "to", "", "output file: .yaml/.yml or .jsonl (required)")
	cmd.MarkFlagRequired("to")
	return cmd
}
