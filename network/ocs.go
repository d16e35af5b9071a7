package network

import (
	"slices"

	"github.com/netsched/netsched/network/matching"
)

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
	nextUp  float64   // earliest readyAt after stepped of a circuit, or Inf
	changes int       // reconfigurations that changed at least one circuit

	elephants []*bundle // elephant bundles, each knowing its index in elix
	elix      map[*bundle]int
	rxUsed    []bool

	// Demand per (source rack, destination rack): a dense matrix up to
	// exactMatchingRacks racks, else only the pairs with elephants, in the
	// order first seen (pairAt indexes them).
	demand [][]float64
	pairs  []matching.Edge
	pairAt map[[2]int]int
}

// exactMatchingRacks is the largest network whose circuits are matched
// exactly on the dense rack-by-rack demand, as always: O(racks^3) per
// reconfiguration, about 20 ms at 256 racks, where 10,000 racks took hours
// and 100,000 would need 80 GB for the matrix alone. A larger network keeps
// demand per rack pair with elephants (memory O(racks + elephants)) and
// matches it exactly while at most this many racks send or receive
// elephants, greedily beyond (matching.Greedy: at least half the maximum,
// 95% or more of it on random demand).
const exactMatchingRacks = 256

func newOCS(cfg OCSConfig, racks int) *ocsState {
	o := &ocsState{cfg: cfg, racks: racks, elix: make(map[*bundle]int), nextUp: Inf}
	o.circuit = make([]int, racks)
	o.readyAt = make([]float64, racks)
	o.rxUsed = make([]bool, racks)
	for i := range o.circuit {
		o.circuit[i] = -1
	}
	if racks > exactMatchingRacks {
		o.pairAt = make(map[[2]int]int)
		return o
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
func (o *ocsState) nextEvent() float64 { return min(o.nextReconfig(), o.nextUp) }

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
	// Circuits coming up within tolerance of t are up at t; nextUp is the
	// first still to come.
	o.stepped = t
	o.nextUp = Inf
	for i, j := range o.circuit {
		if j < 0 {
			continue
		}
		if o.readyAt[i] <= t+timeTol(t) {
			o.readyAt[i] = min(o.readyAt[i], t)
		}
		if o.readyAt[i] > t {
			o.nextUp = min(o.nextUp, o.readyAt[i])
		}
	}
	n.routeElephants(t)
}

// reconfigure chooses the circuit set for the current elephant demand.
func (n *Network) reconfigure(t float64) {
	o := n.ocs
	var assign []int
	if o.demand != nil {
		assign = o.matchDense(n)
	} else {
		assign = o.matchSparse(n)
	}
	if assign == nil {
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

// elephantDemand calls add with the bytes left of every elephant flow and
// its source and destination racks, in the elephants' order.
func (o *ocsState) elephantDemand(n *Network, add func(ri, rj int, bytes float64)) {
	for _, b := range o.elephants {
		clock := n.bclock(b)
		ri, rj := n.topo.machines[b.key.src].Rack, n.topo.machines[b.key.dst].Rack
		for _, f := range b.flows {
			add(ri, rj, max(0, f.finish-clock))
		}
	}
}

// matchDense is the exact matching of the dense demand matrix.
func (o *ocsState) matchDense(n *Network) []int {
	for i := range o.demand {
		clear(o.demand[i])
	}
	o.elephantDemand(n, func(ri, rj int, bytes float64) { o.demand[ri][rj] += bytes })
	for i := range o.demand {
		o.demand[i][i] = 0 // a rack never needs a circuit to itself
	}
	assign, _, err := matching.MaxWeight(o.demand)
	if err != nil {
		return nil
	}
	return assign
}

// matchSparse matches the demand of the rack pairs with elephants: exactly
// over the racks involved while they are few, greedily beyond.
func (o *ocsState) matchSparse(n *Network) []int {
	clear(o.pairAt)
	o.pairs = o.pairs[:0]
	o.elephantDemand(n, func(ri, rj int, bytes float64) {
		if ri == rj {
			return // a rack never needs a circuit to itself
		}
		k, ok := o.pairAt[[2]int{ri, rj}]
		if !ok {
			k = len(o.pairs)
			o.pairAt[[2]int{ri, rj}] = k
			o.pairs = append(o.pairs, matching.Edge{Row: ri, Col: rj})
		}
		o.pairs[k].Weight += bytes
	})
	rows, cols := endpoints(o.pairs)
	if len(rows) > exactMatchingRacks || len(cols) > exactMatchingRacks {
		assign, _ := matching.Greedy(o.racks, o.pairs)
		return assign
	}
	return matchAmong(o.racks, o.pairs, rows, cols)
}

// endpoints lists, in increasing order, the rows and the columns of the
// edges with positive weight.
func endpoints(edges []matching.Edge) (rows, cols []int) {
	for _, e := range edges {
		if e.Weight > 0 {
			rows = append(rows, e.Row)
			cols = append(cols, e.Col)
		}
	}
	slices.Sort(rows)
	slices.Sort(cols)
	return slices.Compact(rows), slices.Compact(cols)
}

// matchAmong is the exact matching of edges with positive weight, solved
// on the matrix of their rows and columns alone, as an assignment of all n
// rows.
func matchAmong(n int, edges []matching.Edge, rows, cols []int) []int {
	w := make([][]float64, len(rows))
	for i := range w {
		w[i] = make([]float64, len(cols))
	}
	for _, e := range edges {
		if e.Weight > 0 {
			i, _ := slices.BinarySearch(rows, e.Row)
			j, _ := slices.BinarySearch(cols, e.Col)
			w[i][j] = e.Weight
		}
	}
	sub, _, err := matching.MaxWeight(w)
	if err != nil {
		return nil
	}
	assign := make([]int, n)
	for i := range assign {
		assign[i] = -1
	}
	for i, j := range sub {
		if j >= 0 {
			assign[rows[i]] = cols[j]
		}
	}
	return assign
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
