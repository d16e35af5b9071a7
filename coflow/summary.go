package coflow

import (
	"math"

	"github.com/netsched/netsched/metrics"
)

// Record is one coflow's outcome. Times are seconds, sizes bytes.
type Record struct {
	ID      string
	Arrival float64
	Finish  float64 // when its last flow finished (= Arrival without flows)
	CCT     float64 // Finish - Arrival
	Bytes   float64 // all shuffle bytes of the coflow, node-local shares included
	Width   int     // number of network flows
	// LongestFlow is the largest flow in bytes; it decides the short/long bin.
	LongestFlow float64
}

// Short reports whether the coflow's longest flow is under ShortFlowLimit.
func (r *Record) Short() bool { return r.LongestFlow < ShortFlowLimit }

// Narrow reports whether the coflow has at most NarrowWidth flows.
func (r *Record) Narrow() bool { return r.Width <= NarrowWidth }

// Stats summarise a set of CCTs exactly as job completion times are
// summarised elsewhere (nearest-rank percentiles; all zero when empty).
type Stats = metrics.Stats

// Bins are the Varys coflow categories.
type Bins struct {
	ShortNarrow Stats `json:"short_narrow"`
	ShortWide   Stats `json:"short_wide"`
	LongNarrow  Stats `json:"long_narrow"`
	LongWide    Stats `json:"long_wide"`
}

// Summary is what summary.json holds.
type Summary struct {
	Policy       string         `json:"policy"`
	Params       map[string]any `json:"params,omitempty"` // Options.Params as given
	AaloWeighted bool           `json:"aalo_weighted,omitempty"`
	Reschedule   string         `json:"reschedule"` // events that trigger a reallocation
	// CoflowSim's approximations (Options), omitted when off.
	MergeRackFlows      bool    `json:"merge_rack_flows,omitempty"`
	MinFlow             float64 `json:"min_flow,omitempty"`    // bytes
	RoundFlows          float64 `json:"round_flows,omitempty"` // bytes
	SamePortFlows       bool    `json:"same_port_flows,omitempty"`
	TimeStep            float64 `json:"time_step,omitempty"` // seconds
	AaloNoBackfill      bool    `json:"aalo_no_backfill,omitempty"`
	AaloRequeueAtEvents bool    `json:"aalo_requeue_at_events,omitempty"`
	PortSpeed           float64 `json:"port_speed"` // bytes/s
	Ports               int     `json:"ports"`
	Coflows             int     `json:"coflows"`
	Flows               int     `json:"flows"`
	Bytes               float64 `json:"bytes"`         // all shuffle bytes
	NetworkBytes        float64 `json:"network_bytes"` // bytes carried by flows
	Makespan            float64 `json:"makespan"`      // last finish - first arrival
	Reallocs            int     `json:"reallocations"` // explicit-rate reallocations
	RateUpdates         int     `json:"rate_updates"`  // SetRate calls (rates that changed)
	CCT                 Stats   `json:"cct"`
	Bins                Bins    `json:"bins"`
	// Definitions, so that the file explains itself.
	ShortFlowLimit float64 `json:"short_flow_limit"` // bytes
	NarrowWidth    int     `json:"narrow_width"`     // flows
}

// Result is a replay's outcome.
type Result struct {
	Coflows []Record // trace order
	Summary Summary
}

func (r *replayer) result() *Result {
	s := Summary{
		Policy: r.opt.Policy, Params: r.opt.Params, AaloWeighted: r.aalo != nil && r.aalo.Config().Weighted,
		PortSpeed: r.opt.PortSpeed, Ports: r.tr.Ports, Coflows: len(r.recs), Flows: r.flows,
		Reallocs: r.reallocs, RateUpdates: r.rateUpdates, ShortFlowLimit: ShortFlowLimit, NarrowWidth: NarrowWidth,
		MergeRackFlows: r.opt.MergeRackFlows, MinFlow: r.opt.MinFlow, RoundFlows: r.opt.RoundFlows,
		SamePortFlows: r.opt.SamePortFlows, TimeStep: r.opt.TimeStep,
		AaloNoBackfill: r.opt.AaloNoBackfill, AaloRequeueAtEvents: r.opt.AaloRequeueAtEvents,
	}
	switch {
	case r.pol == nil:
		s.Reschedule = "none (network max-min)"
	case r.opt.RescheduleOnFlowCompletion:
		s.Reschedule = "coflow arrival, coflow departure, flow completion"
	case r.opt.IdleFreedBandwidth:
		s.Reschedule = "coflow arrival, coflow departure (freed bandwidth idles until then)"
	default:
		s.Reschedule = "coflow arrival, coflow departure; backfill at a finished flow's ports"
	}
	if r.aalo != nil && !r.opt.AaloRequeueAtEvents {
		s.Reschedule += ", queue change"
	}
	var all []float64
	var bins [4][]float64
	first, last := math.Inf(1), math.Inf(-1)
	for i := range r.recs {
		rec := &r.recs[i]
		s.Bytes += rec.Bytes
		all = append(all, rec.CCT)
		b := 0
		if !rec.Short() {
			b += 2
		}
		if !rec.Narrow() {
			b++
		}
		bins[b] = append(bins[b], rec.CCT)
		first, last = min(first, rec.Arrival), max(last, rec.Finish)
	}
	s.NetworkBytes = r.netBytes
	if len(r.recs) > 0 {
		s.Makespan = last - first
	}
	s.CCT = metrics.Summarize(all)
	s.Bins = Bins{metrics.Summarize(bins[0]), metrics.Summarize(bins[1]), metrics.Summarize(bins[2]), metrics.Summarize(bins[3])}
	return &Result{Coflows: r.recs, Summary: s}
}
