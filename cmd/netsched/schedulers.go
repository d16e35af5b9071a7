package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/netsched/netsched/sched"
)

func newSchedulersCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "schedulers",
		Short: "List every registered scheduler and network policy with its description and parameters",
		Long: `List every registered scheduler and network policy with its description and parameters.

A scheduler places tasks on machines; a network policy sets the network side
of a run (flow priority classes). A scenario names a scheduler, and may
combine it with a network policy and the parameters of each:

  scheduler: {name: fair, network: <policy>}
  scheduler: {name: fair, params: {...}, network: <policy>, network_params: {...}}

A scheduler that classes flows itself takes precedence over the policy.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			for _, s := range sched.Schedulers() {
				fmt.Fprintf(w, "%s\t%s\n", s.Name, s.Description)
				writeParams(w, s.Params)
			}
			if err := w.Flush(); err != nil {
				return err
			}
			nets := sched.NetworkPolicies()
			fmt.Fprintf(out, "\nnetwork policies (scheduler: {name: fair, network: <policy>}):\n")
			if len(nets) == 0 {
				fmt.Fprintf(out, "  (none registered)\n")
				return nil
			}
			w = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			for _, n := range nets {
				fmt.Fprintf(w, "%s\t%s\n", n.Name, n.Description)
				writeParams(w, n.Params)
			}
			return w.Flush()
		},
	}
}

// writeParams lists a scheduler's or a network policy's parameters.
func writeParams(w io.Writer, params []sched.ParamInfo) {
	for _, p := range params {
		fmt.Fprintf(w, "\t  %s (default %s)\t%s\n", p.Name, p.Default, p.Help)
	}
}
