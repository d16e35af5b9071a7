package main

import (
	"fmt"
	"strings"

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
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		if err := rejectEmptyPaths(cmd); err != nil {
			return err
		}
		return prof.start()
	}
	// Stopped after the command whether it succeeded or not (cobra skips
	// PersistentPostRun after an error).
	cobra.OnFinalize(func() { prof.finish() })
	root.AddCommand(newRunCmd(), newSchedulersCmd(), newValidateCmd())
	for _, extra := range extraCommands {
		root.AddCommand(extra())
	}
	return root
}

// pathFlags name a file or directory to write. Given as "" they would
// fall back to their default (or to the working directory), so an empty
// value is an error in every command.
var pathFlags = []string{"out", "report-dir", "cpuprofile", "memprofile"}

func rejectEmptyPaths(cmd *cobra.Command) error {
	for _, name := range pathFlags {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed && strings.TrimSpace(f.Value.String()) == "" {
			return fmt.Errorf("--%s: expected a path, got an empty string (leave the flag out for its default)", name)
		}
	}
	return nil
}

// extraCommands are registered by the other command files of this package.
var extraCommands []func() *cobra.Command
