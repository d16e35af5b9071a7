package main

import (
	"github.com/spf13/cobra"

	"github.com/netsched/netsched/sim"
)

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "netsched",
		Short:         "Network-aware scheduling of data-parallel jobs, simulated exactly",
		Version:       sim.Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	prof := addProfileFlags(root)
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return prof.start() }
	// Stopped after the command whether it succeeded or not (cobra skips
	// PersistentPostRun after an error).
	cobra.OnFinalize(func() { prof.finish() })
	root.AddCommand(newRunCmd(), newSchedulersCmd(), newValidateCmd())
	for _, extra := range extraCommands {
		root.AddCommand(extra())
	}
	return root
}

// extraCommands are registered by the other command files of this package.
var extraCommands []func() *cobra.Command
