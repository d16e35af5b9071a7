// Package network is netsched's flow-level network model: machines with NICs
// grouped in racks, rack up/down links to an electrical core (EPS), an
// optional optical circuit switch (OCS), and flows whose rates are set by
// strict priority between classes and max-min fairness within a class.
//
// The model is exact between events: rates change only when a flow starts,
// finishes or is re-classed/re-capped, or when circuits change. The engine
// drives it as a sub-simulator: it mutates the network at time `now`, asks
// NextEvent for the earliest internal event and calls AdvanceTo to process
// everything up to that time.
//
// THIS FILE IS THE CONTRACT used by package sim and package coflow. Keep the
// exported signatures stable.
package network

import "math"

// Kind names a topology.
type Kind string

const (
	NonBlocking Kind = "nonblocking" // one big switch: only NIC links constrain
	TwoTier     Kind = "two-tier"    // NICs + rack uplink/downlink to a core
	Hybrid      Kind = "hybrid"      // two-tier EPS + one OCS tx/rx port per rack
)

// Machine is one host. Rates are bytes per second.
type Machine struct {
	Rack    int
	NICUp   float64
	NICDown float64
}

// Config describes a network. New takes every value as given (a zero is a
// zero); DefaultOCS and DefaultMonitor give the documented defaults. Only
// Kind (nonblocking) and Racks (from the machines) may be left zero.
type Config struct {
	Kind     Kind
	Machines []Machine // index = machine id; racks numbered 0..Racks-1
	Racks    int

	// Two-tier and hybrid: rack uplink/downlink speed in bytes/s. When zero,
	// derived as (sum of the rack's NIC speeds) / Oversubscription.
	RackUp, RackDown float64
	Oversubscription float64 // >= 1 (1: none) when a rack link is derived

	OCS     OCSConfig
	Monitor MonitorConfig

	// Granularity, when > 0, makes the model coarser in time (opt-in; 0 is
	// the exact model): rates change only at multiples of Granularity
	// seconds. A flow started between two grid points waits for the next
	// one, a flow whose bytes run out between two grid points completes at
	// the next one, and the allocation made at a grid point holds until the
	// next (docs/network.md §4, "Coarser granularity"). It bounds the
	// allocations by one per grid point that has something to do.
	Granularity float64
}

// OCSConfig parameterises the optical circuit switch of a hybrid network.
type OCSConfig struct {
	PortSpeed         float64 // bytes/s of one circuit, > 0; default 10 Gbps
	Interval          float64 // seconds between reconfigurations, > 0; default 1 s
	Delay             float64 // seconds a changed circuit carries nothing, >= 0; default 10 ms
	ElephantThreshold float64 // bytes, >= 0; flows at or above use circuits; default 1.125e9
}

// MonitorConfig parameterises the measurement a real cluster could make.
type MonitorConfig struct {
	Interval  float64 // seconds between samples; default 1 s; negative: no monitor; 0 is an error
	Window    float64 // EMA time constant in seconds, >= 0 (0: no smoothing); default 5 s
	Threshold float64 // cross-rack utilisation in [0, 1] at or above which the core is "saturated"; default 0.8
	// OnSample, when set, receives every sample (for a timeline output); a
	// stretch of identical samples skipped at once arrives as one call with
	// its Count.
	OnSample func(Sample)
}

// Sample is one monitor reading.
type Sample struct {
	Time float64
	// Count is how many samples this reading stands for, taken at Since,
	// Since+Interval, ..., Time: 1, or more when the network skipped a
	// stretch of identical samples (idle or constant load) in one step.
	Count                int
	Since                float64
	CrossRackUtilization float64   // smoothed, 0..1 (0 when there are no rack links)
	Saturated            bool      // CrossRackUtilization >= Threshold
	ReceiveRate          []float64 // smoothed bytes/s into each machine (shared slice: copy to keep)
	LinkUtilization      []float64 // smoothed 0..1 per link, indexed like Links() (shared slice)
}

// FlowID identifies an active flow; ids are never reused within a Network.
type FlowID int64

// FlowSpec describes a new flow. Src != Dst is required: a node-local
// transfer is not a flow.
type FlowSpec struct {
	Src, Dst int
	Size     float64 // bytes, > 0
	Class    int     // priority class: lower is served first; >= 0
	RateCap  float64 // bytes/s; 0 = uncapped
	Tag      int64   // opaque owner id returned on completion
	// Aggregate is the size of the aggregated transfer this flow is part of
	// (0: none), such as a job's shuffle from one rack released at once
	// (JobPacker §4.2). The OCS sees demand per rack pair, so a flow whose
	// aggregate reaches the elephant threshold may take a circuit even
	// when it is small itself.
	Aggregate float64
	// FromRack makes the flow stand for bytes from several machines of
	// Src's rack (a coarser transfer model, opt-in): its path starts at the
	// rack's uplink and leaves out Src's NIC. Src and Dst must be in
	// different racks of a two-tier or hybrid network.
	FromRack bool
}

// Completion reports a finished flow.
type Completion struct {
	ID   FlowID
	Tag  int64
	Time float64
	Size float64
}

// Stats are cumulative byte counters.
type Stats struct {
	IntraRackBytes   float64 // bytes that crossed only NICs
	CrossRackBytes   float64 // bytes that left their rack
	EPSBytes         float64 // cross-rack bytes carried by the electrical core
	OCSBytes         float64 // cross-rack bytes carried by circuits
	Reconfigurations int     // OCS reconfigurations that changed at least one circuit
}

// LinkInfo describes one link for outputs and checks.
type LinkInfo struct {
	Name     string  // e.g. "m3.up", "m3.down", "r1.up", "r1.down", "ocs.r0.tx"
	Capacity float64 // bytes/s
	Kind     LinkKind
	Index    int  // the machine (LinkNIC) or the rack (LinkRack, LinkOCSPort)
	Up       bool // the sending direction: NIC or rack uplink, OCS transmit port
}

// LinkKind says what a link is.
type LinkKind uint8

const (
	LinkNIC     LinkKind = iota // a machine's NIC
	LinkRack                    // a rack's link to the electrical core (two-tier, hybrid)
	LinkOCSPort                 // a rack's optical circuit switch port (hybrid)
)

// Inf is returned by NextEvent when nothing is pending.
var Inf = math.Inf(1)

// API is what the engine and the coflow replay use; *Network implements it.
// Times passed in must never decrease.
type API interface {
	Start(now float64, f FlowSpec) (FlowID, error)
	Cancel(now float64, id FlowID)
	SetClass(now float64, id FlowID, class int)
	SetRateCap(now float64, id FlowID, cap float64) // 0 removes the cap
	// SetRate pins a flow to an explicit rate that bypasses max-min sharing
	// (explicit-rate flows are served before every class); rate < 0 returns
	// the flow to max-min sharing. The caller keeps explicit rates feasible.
	SetRate(now float64, id FlowID, rate float64)

	// NextEvent is the earliest time of an internal event (flow completion,
	// OCS reconfiguration, monitor sample), or Inf.
	NextEvent() float64
	// AdvanceTo processes every internal event at or before t, calling done
	// for each completed flow in (time, id) order.
	AdvanceTo(t float64, done func(Completion))

	Remaining(id FlowID) float64 // bytes left (as of the last AdvanceTo/mutation)
	Rate(id FlowID) float64      // current bytes/s
	ActiveFlows() int

	Stats() Stats
	Links() []LinkInfo
	// LinkLoad returns the current (instantaneous) bytes/s on every link,
	// indexed like Links(); used by check mode (no link above capacity).
	LinkLoad() []float64
	// Latest monitor reading (zero Sample before the first).
	Monitor() Sample
	// Err is the error that stopped the network's clock (a quantity past
	// what the model represents exactly), or nil. Once set, AdvanceTo does
	// nothing: the run cannot go on.
	Err() error
}
