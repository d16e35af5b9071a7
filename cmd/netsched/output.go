package main

import "github.com/spf13/cobra"

// outputRules is the help text on output directories shared by the
// commands that write one (package outdir implements it).
const outputRules = `Output directories: netsched replaces or removes only the files it wrote
(each directory lists them in .netsched-files); the user's files beside them
are kept, and a write that would replace one is refused, naming it. A
directory holding only files netsched did not write is refused unless
--force, which writes netsched's files beside them (it never replaces them).
A symbolic link is written through. Two netsched processes never write one
directory at once (the second is refused; the shards of one sweep may share
it); temporaries left by a killed process are removed by the next.`

// addForceFlag is the --force of every command that writes an output
// directory.
func addForceFlag(cmd *cobra.Command, force *bool) {
	cmd.Flags().BoolVar(force, "force", false,
		"write into an output directory that holds files netsched did not write (beside them; they are never replaced)")
}
