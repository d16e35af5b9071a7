// Command netsched replays data-parallel workloads on a modelled cluster and
// network under the schedulers of five network-aware scheduling papers and
// their baselines. See README.md.
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := newRootCmd().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "netsched:", err)
		os.Exit(1)
	}
}
