package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/netsched/netsched/sim"
)

func newSchedulersCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "schedulers",
		Short: "List every registered scheduler with its description and parameters",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			for _, s := range sim.Schedulers() {
				fmt.Fprintf(w, "%s\t%s\n", s.Name, s.Description)
				for _, p := range s.Params {
					fmt.Fprintf(w, "\t  %s (default %s)\t%s\n", p.Name, p.Default, p.Help)
				}
			}
			return w.Flush()
		},
	}
}
