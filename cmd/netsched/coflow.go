package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/netsched/netsched/coflow"
	"github.com/netsched/netsched/internal/outdir"
	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/trace/coflowbench"
	"github.com/netsched/netsched/trace/inspect"
)

func init() { extraCommands = append(extraCommands, newCoflowCmd) }

// newCoflowCmd is `netsched coflow TRACE --policy P [--param k=v] [--out DIR] [--port-speed 1Gbps]`:
// a network-only replay of a coflow-benchmark trace under a network policy
// from the registry.
func newCoflowCmd() *cobra.Command {
	var policy, out, speed, firstLimit, minFlow, roundFlows, timeStep string
	var force bool
	var params []string
	var opt coflow.Options
	cmd := &cobra.Command{
		Use:   "coflow TRACE --policy P [--param KEY=VALUE]... [--out DIR] [--port-speed 1Gbps]",
		Short: "Replay a coflow-benchmark trace on the network model under a coflow scheduler",
		Long: `Replay a coflow-benchmark trace (e.g. FB2010-1Hr-150-0.txt) on a non-blocking
fabric: every port is a machine whose NIC uplink and downlink run at
--port-speed. Each reducer's bytes are split evenly over the coflow's distinct
mapper ports (a mapper on the reducer's port moves its share locally) and all
flows of a coflow start at its arrival. CoflowSim's approximations of this
model (--merge-rack-flows, --min-flow, --round-flows, --same-port-flows,
--time-step) and of Aalo (--aalo-no-backfill, --aalo-requeue-at-events) are
options, off by default.

Policies are the network policies of the registry that run without tasks
(` + "`netsched schedulers`" + ` lists them with their parameters, set with --param):
fair is per-flow max-min sharing; varys orders the coflows (parameter order:
sebf, fifo, scf, ncf or lcf) and gives each the MADD allocation, then
backfills; aalo is Aalo's D-CLAS. fifo, scf, ncf, lcf and sebf are shorthands
for varys with that order. (In a scenario, network: fifo and network: scf
are priority-class policies instead; they need tasks and cannot replay.)
Accepted: ` + strings.Join(coflow.Policies(), ", ") + `. See docs/coflow.md.

Prints a CCT table; with --out, also writes summary.json and coflows.csv
(times in seconds, sizes in bytes) into DIR, replacing those of an earlier
replay. ` + outputRules,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if opt.PortSpeed, err = units.ParseRate(speed); err != nil {
				return fmt.Errorf("--port-speed: %w", err)
			}
			if opt.PortSpeed <= 0 {
				return fmt.Errorf("--port-speed %q must be positive", speed)
			}
			if opt.AaloFirstLimit, err = units.ParseBytes(firstLimit); err != nil {
				return fmt.Errorf("--aalo-first-limit: %w", err)
			}
			if opt.AaloFirstLimit <= 0 {
				return fmt.Errorf("--aalo-first-limit %q must be positive", firstLimit)
			}
			if opt.MinFlow, err = units.ParseBytes(minFlow); err != nil {
				return fmt.Errorf("--min-flow: %w", err)
			}
			if opt.RoundFlows, err = units.ParseBytes(roundFlows); err != nil {
				return fmt.Errorf("--round-flows: %w", err)
			}
			if opt.TimeStep, err = units.ParseDuration(timeStep); err != nil {
				return fmt.Errorf("--time-step: %w", err)
			}
			opt.Policy = policy
			if opt.Params, err = inspect.ParseOptions(params); err != nil {
				return fmt.Errorf("--param: %w", err)
			}
			if p := strings.ToLower(strings.TrimSpace(policy)); p != coflow.Aalo {
				for _, name := range []string{"aalo-queues", "aalo-first-limit", "aalo-multiplier", "aalo-weighted", "aalo-no-backfill", "aalo-requeue-at-events"} {
					if cmd.Flags().Changed(name) {
						return fmt.Errorf("--%s is a parameter of --policy aalo, not of %s", name, p)
					}
				}
			}
			var dir *outdir.Dir
			if out != "" {
				if dir, err = outdir.Open(out, outdir.Options{Force: force}); err != nil {
					return err // before the replay, not after it
				}
				defer dir.Close()
			}
			tr, err := coflowbench.ReadFile(args[0])
			if err != nil {
				return err
			}
			res, err := coflow.Replay(tr, opt)
			if err != nil {
				return err
			}
			var files []outdir.File
			if out != "" {
				if files, err = res.Files(); err != nil {
					return err
				}
				if err := dir.Replace(files); err != nil {
					return err
				}
			}
			if err := res.WriteTable(cmd.OutOrStdout()); err != nil {
				return err
			}
			if out != "" {
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %s to %s\n", strings.Join(outdir.Names(files), ", "), out)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&policy, "policy", "", "coflow scheduling policy: "+strings.Join(coflow.Policies(), ", "))
	f.StringArrayVar(&params, "param", nil, "a parameter of the policy, key=value (YAML value; repeatable), as a scenario's network_params")
	f.StringVar(&out, "out", "", "directory for summary.json and coflows.csv (nothing is written without it)")
	addForceFlag(cmd, &force)
	f.StringVar(&speed, "port-speed", "1Gbps", "NIC uplink and downlink speed of every port")
	f.BoolVar(&opt.IdleFreedBandwidth, "idle-freed-bandwidth", false,
		"leave a finished flow's bandwidth idle until the next reallocation (CoflowSim) instead of backfilling it at its ports")
	f.BoolVar(&opt.RescheduleOnFlowCompletion, "reschedule-on-flow-completion", false,
		"make every flow completion a full reallocation (slow on large traces)")
	f.BoolVar(&opt.AaloWeighted, "aalo-weighted", false, "aalo's parameter weighted: weighted sharing across queues (weight K-q) instead of strict priority")
	f.IntVar(&opt.AaloQueues, "aalo-queues", coflow.DefaultAaloQueues, "aalo's parameter queues: number of queues")
	f.StringVar(&firstLimit, "aalo-first-limit", "10MiB", "aalo's parameter first_limit: bytes sent that move a coflow out of the first queue")
	f.Float64Var(&opt.AaloMultiplier, "aalo-multiplier", coflow.DefaultAaloMultiplier, "aalo's parameter multiplier: each queue limit is this times the previous")
	f.BoolVar(&opt.MergeRackFlows, "merge-rack-flows", false,
		"CoflowSim approximation: merge a coflow's reducers on one port (one flow per mapper port and reducer port)")
	f.StringVar(&minFlow, "min-flow", "0", "CoflowSim approximation: every flow at least this many bytes (e.g. 1MiB; 0: off)")
	f.StringVar(&roundFlows, "round-flows", "0", "CoflowSim approximation: round every flow up to a multiple of this many bytes (CoflowSim: 1MiB; 0: off)")
	f.BoolVar(&opt.SamePortFlows, "same-port-flows", false,
		"CoflowSim approximation: a mapper's share for a reducer on its own port is a flow through the port's uplink and downlink, not local")
	f.StringVar(&timeStep, "time-step", "0", "CoflowSim approximation: rates change only at multiples of this duration (CoflowSim: 8ms; 0: exact events)")
	f.BoolVar(&opt.AaloNoBackfill, "aalo-no-backfill", false,
		"CoflowSim's Dark simulator: no backfill pass after aalo's split (bandwidth it leaves idles until the next reallocation)")
	f.BoolVar(&opt.AaloRequeueAtEvents, "aalo-requeue-at-events", false,
		"CoflowSim's Dark simulator: move coflows between aalo's queues only at coflow arrivals and departures")
	cmd.MarkFlagRequired("policy")
	return cmd
}
