package coflow

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/netsched/netsched/coflow/rate"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/trace/coflowbench"
	// The replay resolves policy names through the registry of network
	// policies; these are the ones it can run.
	_ "github.com/netsched/netsched/sched/netpolicy"
)

// Policy names accepted by Options.Policy. fair, varys and aalo are the
// registered network policies of those names (sched/netpolicy); fifo, scf,
// ncf, lcf and sebf are the replay's shorthands for varys with that order.
const (
	Fair  = "fair"  // per-flow max-min sharing by the network model
	FIFO  = "fifo"  // varys, order fifo: coflow arrival order, MADD + backfill
	SCF   = "scf"   // varys, order scf: smallest largest flow first
	NCF   = "ncf"   // varys, order ncf: fewest of mapper or reducer ports first
	LCF   = "lcf"   // varys, order lcf: least remaining bytes first
	SEBF  = "sebf"  // varys, order sebf: smallest effective bottleneck first
	Aalo  = "aalo"  // Aalo D-CLAS: multi-level queues on bytes sent
	Varys = "varys" // MADD + backfill in the order of its `order` parameter (sebf by default)
)

// Policies lists every name Options.Policy accepts in a stable order: fair,
// the varys shorthands, aalo, varys, then any other registered network
// policy the replay can run, by name.
func Policies() []string {
	out := []string{Fair, FIFO, SCF, NCF, LCF, SEBF, Aalo, Varys}
	for _, info := range sched.NetworkPolicies() {
		if slices.Contains(out, info.Name) {
			continue
		}
		if np, err := sched.NewNetworkPolicy(info.Name, nil); err == nil {
			if _, ok := np.(Replayable); ok {
				out = append(out, info.Name)
			}
		}
	}
	return out
}

// Replayable is a registered network policy the task-free replay can run:
// RatePolicy is its rate policy, nil for per-flow max-min sharing (fair).
// Policies that derive priority classes from task state (sched/netpolicy's
// fifo and scf) do not implement it.
type Replayable interface {
	RatePolicy() rate.Policy
}

// Defaults applied to zero-valued Options fields.
const (
	DefaultPortSpeed      = 1e9 / 8 // 1 Gbps in bytes/s
	DefaultAaloQueues     = rate.DefaultQueues
	DefaultAaloFirstLimit = rate.DefaultFirstLimit // upper bound of Q0 in bytes (10 MiB)
	DefaultAaloMultiplier = rate.DefaultMultiplier
	// ShortFlowLimit: a coflow is "short" when its longest flow is below
	// this (Varys bins use 5 MB; the trace's MB is 2^20 bytes).
	ShortFlowLimit = 5 * coflowbench.MB
	// NarrowWidth: a coflow is "narrow" when it has at most this many flows.
	NarrowWidth = 50
)

// Options configure a replay.
type Options struct {
	Policy string // one of Policies(), case-insensitive
	// Params are the policy's parameters, as a scenario's network_params
	// (`netsched schedulers` lists them). A varys shorthand fixes order.
	Params    map[string]any
	PortSpeed float64 // NIC up and down speed of every port, bytes/s; default 1 Gbps

	// Between reallocations, a flow that finishes hands its bandwidth at
	// once to the other flows at its two ports (the backfill pass restricted
	// to those ports: in backfill order, each flow adds min(free uplink, free
	// downlink)); the rates the policy set otherwise stay. This keeps the
	// explicit-rate policies work-conserving at a cost proportional to the
	// flows at those ports.
	//
	// IdleFreedBandwidth turns that off: a finished flow's bandwidth idles
	// until the next reallocation, as in CoflowSim.
	IdleFreedBandwidth bool
	// RescheduleOnFlowCompletion makes every flow completion a full
	// reallocation (slow on large traces: one pass over all active flows per
	// completion time).
	RescheduleOnFlowCompletion bool

	// CoflowSim's model approximations, all off by default (docs/coflow.md,
	// "Approximations"); each changes the model, not only its speed.
	//
	// MergeRackFlows merges a coflow's reducers on one port into one (its
	// bytes the sum): one flow per (mapper port, reducer port), as CoflowSim
	// merges tasks per rack. Mappers are merged per port in every model.
	MergeRackFlows bool
	// MinFlow, when > 0, makes every flow at least this many bytes; a
	// zero-byte share then becomes a flow of MinFlow bytes too.
	MinFlow float64
	// RoundFlows, when > 0, rounds every flow's size up to a multiple of
	// this many bytes (CoflowSim: whole MB, 2^20 bytes).
	RoundFlows float64
	// SamePortFlows sends the share of a mapper on the reducer's own port as
	// a flow through that port's uplink and downlink instead of locally.
	SamePortFlows bool
	// TimeStep, when > 0, recomputes rates only at multiples of TimeStep
	// seconds (the network's Config.Granularity): a coflow arriving between
	// two steps starts at the next one (its CCT still counts from its
	// arrival), a flow whose bytes run out between two steps finishes at the
	// next one, and aalo's queue changes are checked at steps only.
	TimeStep float64

	// CoflowSim's Dark simulator (aalo only; an error with another policy):
	// AaloNoBackfill drops the backfill pass after the split, so bandwidth
	// the split leaves idles until the next reallocation (combine with
	// IdleFreedBandwidth for no backfill at all); AaloRequeueAtEvents moves
	// coflows between queues only at reallocations for arrivals and
	// departures, not at the instant they reach their queue's limit.
	AaloNoBackfill      bool
	AaloRequeueAtEvents bool

	// Aalo's parameters queues, first_limit, multiplier and weighted (zero =
	// the registered default); ignored by other policies.
	AaloQueues     int     // number of queues K; default 10
	AaloFirstLimit float64 // bytes sent that move a coflow out of Q0; default 10 MiB
	AaloMultiplier float64 // each later limit is this times the previous; default 10
	// AaloWeighted shares each port between the queues present at it by
	// weight K-q (Q0 heaviest) instead of strict priority across queues.
	AaloWeighted bool
}

// withDefaults validates o, fills in defaults and resolves the policy
// through the registry (nil: max-min sharing).
func (o Options) withDefaults() (Options, rate.Policy, error) {
	o.Policy = strings.ToLower(strings.TrimSpace(o.Policy))
	if o.PortSpeed == 0 {
		o.PortSpeed = DefaultPortSpeed
	}
	if !(o.PortSpeed > 0) || math.IsInf(o.PortSpeed, 0) {
		return o, nil, fmt.Errorf("coflow: port speed %v bytes/s must be positive and finite", o.PortSpeed)
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"min flow", o.MinFlow}, {"round flows", o.RoundFlows}, {"time step", o.TimeStep}} {
		if !(v.x >= 0) || math.IsInf(v.x, 0) {
			return o, nil, fmt.Errorf("coflow: %s %v must be finite and >= 0", v.name, v.x)
		}
	}
	pol, err := o.resolve()
	if _, ok := pol.(*rate.Aalo); err == nil && !ok && (o.AaloNoBackfill || o.AaloRequeueAtEvents) {
		return o, nil, fmt.Errorf("coflow: AaloNoBackfill and AaloRequeueAtEvents need policy aalo, not %s", o.Policy)
	}
	return o, pol, err
}

// resolve builds the policy named by o.Policy from the registry of network
// policies: a varys shorthand is varys with that order, the Aalo* fields
// are aalo's parameters, and Params are passed as given.
func (o Options) resolve() (rate.Policy, error) {
	name, params := o.Policy, map[string]any{}
	if slices.Contains(rate.Orders(), name) {
		if _, ok := o.Params["order"]; ok {
			return nil, fmt.Errorf("coflow: policy %s is varys with order %s; give the order with policy varys", name, name)
		}
		name, params["order"] = Varys, o.Policy
	}
	if name == Aalo {
		if o.AaloQueues != 0 {
			params["queues"] = o.AaloQueues
		}
		if o.AaloFirstLimit != 0 {
			params["first_limit"] = o.AaloFirstLimit
		}
		if o.AaloMultiplier != 0 {
			params["multiplier"] = o.AaloMultiplier
		}
		if o.AaloWeighted {
			params["weighted"] = true
		}
	}
	for k, v := range o.Params {
		params[k] = v
	}
	if _, ok := sched.LookupNetwork(name); !ok {
		return nil, fmt.Errorf("coflow: unknown policy %q (want one of %s)", o.Policy, strings.Join(Policies(), ", "))
	}
	np, err := sched.NewNetworkPolicy(name, params)
	if err != nil {
		return nil, fmt.Errorf("coflow: %w", err)
	}
	rp, ok := np.(Replayable)
	if !ok {
		return nil, fmt.Errorf("coflow: network policy %s sets priority classes from task state, which a replay without tasks does not have (replay policies: %s; in the replay fifo and scf are varys orders)",
			name, strings.Join(Policies(), ", "))
	}
	return rp.RatePolicy(), nil
}
