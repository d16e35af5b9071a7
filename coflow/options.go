package coflow

import (
	"fmt"
	"math"
	"strings"

	"github.com/netsched/netsched/trace/coflowbench"
)

// Policy names accepted by Options.Policy.
const (
	Fair = "fair" // per-flow max-min sharing by the network model
	FIFO = "fifo" // coflow arrival order, MADD + backfill
	SCF  = "scf"  // smallest largest-flow first, MADD + backfill
	NCF  = "ncf"  // fewest of mapper or reducer ports first, MADD + backfill
	LCF  = "lcf"  // least remaining bytes first, MADD + backfill
	SEBF = "sebf" // Varys smallest effective bottleneck first, MADD + backfill
	Aalo = "aalo" // Aalo D-CLAS: multi-level queues on bytes sent
)

// Policies lists every policy name in a stable order.
func Policies() []string { return []string{Fair, FIFO, SCF, NCF, LCF, SEBF, Aalo} }

// Defaults applied to zero-valued Options fields.
const (
	DefaultPortSpeed      = 1e9 / 8 // 1 Gbps in bytes/s
	DefaultAaloQueues     = 10
	DefaultAaloFirstLimit = 10 * coflowbench.MB // upper bound of Q0 in bytes
	DefaultAaloMultiplier = 10.0
	// ShortFlowLimit: a coflow is "short" when its longest flow is below
	// this (Varys bins use 5 MB; the trace's MB is 2^20 bytes).
	ShortFlowLimit = 5 * coflowbench.MB
	// NarrowWidth: a coflow is "narrow" when it has at most this many flows.
	NarrowWidth = 50
)

// Options configure a replay.
type Options struct {
	Policy    string  // one of Policies()
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

	// Aalo D-CLAS parameters (zero = default).
	AaloQueues     int     // number of queues K; default 10
	AaloFirstLimit float64 // bytes sent that move a coflow out of Q0; default 10 MiB
	AaloMultiplier float64 // each later limit is this times the previous; default 10
	// AaloWeighted shares each port between the queues present at it by
	// weight K-q (Q0 heaviest) instead of strict priority across queues.
	AaloWeighted bool
}

// withDefaults validates o and fills in defaults.
func (o Options) withDefaults() (Options, error) {
	o.Policy = strings.ToLower(strings.TrimSpace(o.Policy))
	known := false
	for _, p := range Policies() {
		known = known || p == o.Policy
	}
	if !known {
		return o, fmt.Errorf("coflow: unknown policy %q (want one of %s)", o.Policy, strings.Join(Policies(), ", "))
	}
	if o.PortSpeed == 0 {
		o.PortSpeed = DefaultPortSpeed
	}
	if !(o.PortSpeed > 0) || math.IsInf(o.PortSpeed, 0) {
		return o, fmt.Errorf("coflow: port speed %v bytes/s must be positive and finite", o.PortSpeed)
	}
	if o.AaloQueues == 0 {
		o.AaloQueues = DefaultAaloQueues
	}
	if o.AaloFirstLimit == 0 {
		o.AaloFirstLimit = DefaultAaloFirstLimit
	}
	if o.AaloMultiplier == 0 {
		o.AaloMultiplier = DefaultAaloMultiplier
	}
	if o.AaloQueues < 1 || o.AaloQueues > 64 {
		return o, fmt.Errorf("coflow: aalo queues %d must be in [1, 64]", o.AaloQueues)
	}
	if !(o.AaloFirstLimit > 0) || math.IsInf(o.AaloFirstLimit, 0) {
		return o, fmt.Errorf("coflow: aalo first queue limit %v bytes must be positive and finite", o.AaloFirstLimit)
	}
	if !(o.AaloMultiplier > 1) || math.IsInf(o.AaloMultiplier, 0) {
		return o, fmt.Errorf("coflow: aalo queue multiplier %v must be above 1 and finite", o.AaloMultiplier)
	}
	return o, nil
}
