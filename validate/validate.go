//go:build linux

// Package validate compares netsched's network model with real TCP: it
// runs a scenario in the simulator with every flow recorded, builds the
// scenario's topology out of Linux network namespaces (veth links shaped
// by tc htb, priority classes by DSCP), replays the recorded flows as TCP
// transfers at their simulated start times, and reports per flow and per
// job how the measured completion differs from the simulated one.
//
// The replay is open loop: flows start when the simulator started them,
// not when the emulated tasks would have; the comparison is of the network
// model alone, which is what the simulator's other results rest on.
package validate

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sim"
)

// Run validates the scenario sc (its scheduler runs in the simulator first).
func Run(sc *scenario.Scenario, opt Options) (*Report, error) {
	if opt.MaxFlows == 0 {
		opt.MaxFlows = 500
	}
	topo, err := topologyOf(sc)
	if err != nil {
		return nil, err
	}
	sc.Output.Flows = true
	res, err := sim.Run(sc)
	if err != nil {
		return nil, err
	}
	if len(res.Flows) == 0 {
		return nil, fmt.Errorf("the scenario moves no bytes over the network: nothing to validate")
	}
	if len(res.Flows) > opt.MaxFlows {
		return nil, fmt.Errorf("the scenario has %d flows; validation replays at most %d in real time (a few machines, seconds of traffic)", len(res.Flows), opt.MaxFlows)
	}
	flows, classes, err := replayable(res.Flows)
	if err != nil {
		return nil, err
	}
	topo.Classes = classes
	em, err := Build(topo)
	if err != nil {
		return nil, err
	}
	defer em.Close()
	meas, err := em.Replay(flows)
	if err != nil {
		return nil, err
	}
	return compare(sc.File.Name, res.Flows, meas), nil
}

// topologyOf is the emulated topology of sc's cluster and network.
func topologyOf(sc *scenario.Scenario) (Topology, error) {
	cfg := sc.Network
	var t Topology
	for _, m := range sc.Machines {
		t.RackOf = append(t.RackOf, m.Rack)
		t.NICUp = append(t.NICUp, m.NIC)
		t.NICDown = append(t.NICDown, m.NIC)
	}
	switch cfg.Kind {
	case network.NonBlocking, "":
		return t, nil
	case network.TwoTier:
	default:
		return t, fmt.Errorf("validation emulates nonblocking and two-tier networks; %s has an optical circuit switch, which a Linux bridge cannot stand for", cfg.Kind)
	}
	// The line rates as written: network.goodput scales the simulator's
	// links, never the emulated ones.
	spec := sc.File.Network
	over := cfg.Oversubscription // as resolved: goodput scales no ratio
	t.RackUp, t.RackDown = make([]float64, sc.Racks), make([]float64, sc.Racks)
	for i, r := range t.RackOf {
		t.RackUp[r] += t.NICUp[i] / over
		t.RackDown[r] += t.NICDown[i] / over
	}
	for r := range sc.Racks {
		if spec.RackUplink > 0 {
			t.RackUp[r] = float64(spec.RackUplink)
		}
		if spec.RackDownlink > 0 {
			t.RackDown[r] = float64(spec.RackDownlink)
		}
	}
	return t, nil
}

// replayable turns the simulated flows into flows to replay, mapping the
// distinct priority classes in order to 0, 1, 2.
func replayable(recs []metrics.FlowRecord) ([]Flow, int, error) {
	var classes []int
	for _, f := range recs {
		if !slices.Contains(classes, f.Class) {
			classes = append(classes, f.Class)
		}
	}
	slices.Sort(classes)
	if len(classes) > MaxClasses {
		return nil, 0, fmt.Errorf("the run uses %d priority classes; the emulation honours %d", len(classes), MaxClasses)
	}
	out := make([]Flow, len(recs))
	for i, f := range recs {
		out[i] = Flow{ID: i, Src: f.Src, Dst: f.Dst, Start: f.Start, Bytes: math.Round(f.Bytes), Class: slices.Index(classes, f.Class)}
	}
	return out, len(classes), nil
}

func compare(name string, recs []metrics.FlowRecord, meas []Measured) *Report {
	r := &Report{Scenario: name}
	type span struct {
		flows              int
		simStart, simEnd   float64
		measStart, measEnd float64
	}
	jobs := map[string]*span{}
	var order []string
	var flowErrs, ratios []float64
	for i, f := range recs {
		m := meas[i]
		fe := FlowError{Flow: f, SimFCT: f.Finish - f.Start, Measured: m.Finish - m.Start}
		fe.RelErr = (fe.Measured - fe.SimFCT) / fe.SimFCT
		r.Flows = append(r.Flows, fe)
		flowErrs = append(flowErrs, math.Abs(fe.RelErr))
		if fe.SimFCT >= 1 {
			ratios = append(ratios, fe.SimFCT/fe.Measured)
		}
		s := jobs[f.Job]
		if s == nil {
			s = &span{simStart: math.Inf(1), measStart: math.Inf(1)}
			jobs[f.Job] = s
			order = append(order, f.Job)
		}
		s.flows++
		s.simStart, s.simEnd = min(s.simStart, f.Start), max(s.simEnd, f.Finish)
		s.measStart, s.measEnd = min(s.measStart, m.Start), max(s.measEnd, m.Finish)
	}
	sort.Strings(order)
	var jobErrs []float64
	for _, id := range order {
		s := jobs[id]
		je := JobError{Job: id, Flows: s.flows, SimSpan: s.simEnd - s.simStart, Measure: s.measEnd - s.measStart}
		je.RelErr = (je.Measure - je.SimSpan) / je.SimSpan
		r.Jobs = append(r.Jobs, je)
		jobErrs = append(jobErrs, math.Abs(je.RelErr))
	}
	r.FlowErr, r.JobErr = metrics.Summarize(flowErrs), metrics.Summarize(jobErrs)
	if len(ratios) > 0 {
		r.Goodput = metrics.Summarize(ratios).P50
	}
	return r
}
