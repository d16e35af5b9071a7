package network

import "github.com/netsched/netsched/network/matching"

// ocsState is the circuit controller of a hybrid network.
//
// Every Interval it sums the remaining bytes of active elephant flows per
// (source rack, destination rack), picks the circuit set as a maximum-weight
// matching of that demand, and installs it. A circuit that did not exist
// before carries nothing for Delay seconds; meanwhile its elephants keep
// using the EPS and move to the circuit when it is up. Elephants whose
// circuit is torn down move back to the EPS at once.
type ocsState struct {
	cfg     OCSConfig
	racks   int
	circuit []int     // circuit[i] = rack j of circuit i->j, or -1
	readyAt []float64 // time circuit i starts carrying
	ticks   int       // reconfigurations attempted (next one at (ticks+1)*Interval)
	stepped float64   // time of the last controller step
	changes int       // reconfigurations that changed at least one circuit

	elephants []*bundle // elephant bundles, each knowing its index in elix
	elix      map[*bundle]int
	demand    [][]float64
	rxUsed    []bool
}

func newOCS(cfg OCSConfig, racks int) *ocsState {
	o := &ocsState{cfg: cfg, racks: racks, elix: make(map[*bundle]int)}
	o.circuit = make([]int, racks)
	o.readyAt = make([]float64, racks)
	o.rxUsed = make([]bool, racks)
	for i := range o.circuit {
		o.circuit[i] = -1
	}
	o.demand = make([][]float64, racks)
	for i := range o.demand {
		o.demand[i] = make([]float64, racks)
	}
	return o
}

// active says whether circuit i->j exists and carries traffic at time t.
func (o *ocsState) active(i, j int, t float64) bool {
	return o.circuit[i] == j && t >= o.readyAt[i]
}

func (o *ocsState) nextReconfig() float64 { return float64(o.ticks+1) * o.cfg.Interval }

// nextEvent is the next reconfiguration or circuit coming up.
func (o *ocsState) nextEvent() float64 {
	t := o.nextReconfig()
	for i, j := range o.circuit {
		if j >= 0 && o.readyAt[i] > o.stepped {
			t = min(t, o.readyAt[i])
		}
	}
	return t
}

func (o *ocsState) addElephant(b *bundle) {
	o.elix[b] = len(o.elephants)
	o.elephants = append(o.elephants, b)
}

func (o *ocsState) removeElephant(b *bundle) {
	i := o.elix[b]
	last := len(o.elephants) - 1
	if i != last {
		o.elephants[i] = o.elephants[last]
		o.elix[o.elephants[i]] = i
	}
	o.elephants = o.elephants[:last]
	delete(o.elix, b)
}

// ocsStep runs the controller events due at time t: a reconfiguration if one
// is due, then moving elephants to the paths their circuits allow.
func (n *Network) ocsStep(t float64) {
	o := n.ocs
	if o.nextReconfig() <= t+timeTol(t) {
		o.ticks++
		n.reconfigure(t)
	}
	// Circuits coming up within tolerance of t are up at t.
	for i, j := range o.circuit {
		if j >= 0 && o.readyAt[i] <= t+timeTol(t) {
			o.readyAt[i] = min(o.readyAt[i], t)
		}
	}
	o.stepped = t
	n.routeElephants(t)
}

// reconfigure chooses the circuit set for the current elephant demand.
func (n *Network) reconfigure(t float64) {
	o := n.ocs
	for i := range o.demand {
		clear(o.demand[i])
	}
	for _, b := range o.elephants {
		clock := n.bclock(b)
		ri, rj := n.topo.machines[b.key.src].Rack, n.topo.machines[b.key.dst].Rack
		for _, f := range b.flows {
			o.demand[ri][rj] += max(0, f.finish-clock)
		}
	}
	for i := range o.demand {
		o.demand[i][i] = 0 // a rack never needs a circuit to itself
	}
	assign, _, err := matching.MaxWeight(o.demand)
	if err != nil {
		return // demand is finite and square: cannot happen
	}
	clear(o.rxUsed)
	for _, j := range assign {
		if j >= 0 {
			o.rxUsed[j] = true
		}
	}
	changed := false
	for i, j := range assign {
		if j < 0 {
			// No demand for port i: keep its old circuit if the receive
			// port is still free, rather than tearing it down for nothing.
			if old := o.circuit[i]; old >= 0 && !o.rxUsed[old] {
				o.rxUsed[old] = true
				continue
			}
			if o.circuit[i] >= 0 {
				changed = true
			}
			o.circuit[i] = -1
			continue
		}
		if o.circuit[i] != j {
			changed = true
			o.circuit[i] = j
			o.readyAt[i] = t + o.cfg.Delay
		}
	}
	if changed {
		o.changes++
	}
}

// routeElephants moves every elephant bundle to the OCS when its circuit is
// up and to the EPS otherwise.
func (n *Network) routeElephants(t float64) {
	o := n.ocs
	for _, b := range o.elephants {
		ri, rj := n.topo.machines[b.key.src].Rack, n.topo.machines[b.key.dst].Rack
		want := pathEPS
		if o.active(ri, rj, t) {
			want = pathOCS
		}
		if b.kind != want {
			n.reroute(b, want)
		}
	}
}

// Circuits returns the current circuit set: c[i] = destination rack of the
// circuit leaving rack i, or -1; ready[i] is when it started (or starts)
// carrying traffic. Nil for non-hybrid networks.
func (n *Network) Circuits() (c []int, ready []float64) {
	if n.ocs == nil {
		return nil, nil
	}
	return append([]int(nil), n.ocs.circuit...), append([]float64(nil), n.ocs.readyAt...)
}
