package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"path/filepath"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/netsched/netsched/internal/outdir"
	"github.com/netsched/netsched/internal/textread"
	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/validate"
)

func newValidateCmd() *cobra.Command {
	var out string
	var suite bool
	var goodput float64
	cmd := &cobra.Command{
		Use:   "validate [SCENARIO] [--suite] [--goodput G] [--out DIR]",
		Short: "Compare the network model with real TCP in Linux network namespaces (needs root)",
		Long: `Run the scenario with every flow recorded, build its topology out of Linux
network namespaces (veth links shaped by tc htb at the NIC and rack-link
rates, priority classes by DSCP), replay the recorded flows as TCP transfers
at their simulated start times, and compare each flow's and each job's
completion. --suite runs the embedded validation suite instead. --goodput G
runs the simulator with network.goodput = G (the fitted share of the line
rate TCP delivers as payload) for the after-calibration numbers.
Needs root, iproute2 and a kernel that allows network namespaces; every
namespace is removed when the run ends.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var names []string
			var docs [][]byte
			switch {
			case suite && len(args) == 0:
				for _, n := range validate.Suite() {
					d, err := validate.SuiteScenario(n)
					if err != nil {
						return err
					}
					names, docs = append(names, n+".yaml"), append(docs, d)
				}
			case !suite && len(args) == 1:
				d, err := textread.ReadFile(args[0])
				if err != nil {
					return err
				}
				names, docs = append(names, args[0]), append(docs, d)
			default:
				return fmt.Errorf("give a scenario file or --suite")
			}
			if goodput != 0 && !(goodput > 0 && goodput <= 1) {
				return fmt.Errorf("--goodput %g: expected a share in (0, 1]", goodput)
			}
			w := cmd.OutOrStdout()
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "scenario\tflows\tflow |err| p50\tp95\tmax\tjob |err| p50\tmax\tgoodput fit\t")
			for i, d := range docs {
				sc, err := scenario.Parse(names[i], d, filepath.Dir(names[i]))
				if err != nil {
					return err
				}
				if goodput > 0 {
					sc, err = withGoodput(names[i], sc, goodput)
					if err != nil {
						return err
					}
				}
				r, err := validate.Run(sc, validate.Options{})
				if err != nil {
					return fmt.Errorf("%s: %w", names[i], err)
				}
				fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%.4f\t\n", names[i], r.FlowErr.Count, pct(r.FlowErr.P50), pct(r.FlowErr.P95),
					pct(r.FlowErr.Max), pct(r.JobErr.P50), pct(r.JobErr.Max), r.Goodput)
				if out != "" {
					dir := out
					if len(docs) > 1 {
						dir = filepath.Join(out, names[i][:len(names[i])-len(".yaml")])
					}
					if err := outdir.Write(dir, validationFiles(r)); err != nil {
						return err
					}
				}
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "write flows.csv and jobs.csv (simulated vs measured) here")
	cmd.Flags().BoolVar(&suite, "suite", false, "run the embedded validation suite")
	cmd.Flags().Float64Var(&goodput, "goodput", 0, "simulate with network.goodput = G (0: the exact line rate)")
	return cmd
}

// withGoodput re-resolves sc with network.goodput set.
func withGoodput(name string, sc *scenario.Scenario, g float64) (*scenario.Scenario, error) {
	f := sc.File
	f.Network.Goodput = g
	return scenario.Resolve(name, &f, ".")
}

func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }

// validationFiles are a report's tables.
func validationFiles(r *validate.Report) []outdir.File {
	var fl, jb [][]string
	fl = append(fl, []string{"job_id", "stage", "index", "src", "dst", "bytes", "class", "start", "sim_fct", "measured_fct", "rel_err"})
	for _, f := range r.Flows {
		fl = append(fl, []string{f.Flow.Job, f.Flow.Stage, strconv.Itoa(f.Flow.Index), strconv.Itoa(f.Flow.Src), strconv.Itoa(f.Flow.Dst),
			metrics.F(f.Flow.Bytes), strconv.Itoa(f.Flow.Class), metrics.F(f.Flow.Start), metrics.F(f.SimFCT), metrics.F(f.Measured), metrics.F(f.RelErr)})
	}
	jb = append(jb, []string{"job_id", "flows", "sim_span", "measured_span", "rel_err"})
	for _, j := range r.Jobs {
		jb = append(jb, []string{j.Job, strconv.Itoa(j.Flows), metrics.F(j.SimSpan), metrics.F(j.Measure), metrics.F(j.RelErr)})
	}
	return []outdir.File{{Name: "flows.csv", Data: csvOf(fl)}, {Name: "jobs.csv", Data: csvOf(jb)}}
}

func csvOf(rows [][]string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(rows) // to memory: cannot fail
	return b.Bytes()
}
