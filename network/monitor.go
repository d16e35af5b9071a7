package network

import "math"

// monitor samples the network every Interval: the utilisation of every link
// and the receive rate of every machine over the interval, computed exactly
// from the links' integrated byte counters, then smoothed with an EMA of
// weight 1-exp(-Interval/Window). A sample costs O(links), whatever the
// number of flows, and nothing is done between samples.
type monitor struct {
	cfg    MonitorConfig
	k      int     // samples taken
	next   float64 // time of the next sample
	weight float64
	prev   []float64 // link byte counters at the previous sample
	util   []float64 // smoothed utilisation per link
	recv   []float64 // smoothed bytes/s per machine
	cross  []int32   // rack up and down links
	last   Sample
}

func newMonitor(cfg MonitorConfig, n *Network) *monitor {
	m := &monitor{
		cfg:    cfg,
		next:   cfg.Interval,
		weight: 1 - math.Exp(-cfg.Interval/cfg.Window),
		prev:   make([]float64, len(n.links)),
		util:   make([]float64, len(n.links)),
		recv:   make([]float64, len(n.topo.machines)),
	}
	if n.topo.rackBase >= 0 {
		for r := range n.topo.racks {
			m.cross = append(m.cross, n.topo.rackBase+2*int32(r), n.topo.rackBase+2*int32(r)+1)
		}
	}
	return m
}

// sample takes the reading due at time t (rates must be current).
func (m *monitor) sample(n *Network, t float64) {
	iv := m.cfg.Interval
	w := m.weight
	for i := range n.links {
		ln := &n.links[i]
		ln.advance(t)
		moved := ln.bytes - m.prev[i]
		m.prev[i] = ln.bytes
		u := 0.0
		if ln.cap > 0 {
			u = moved / (ln.cap * iv)
		}
		m.util[i] += w * (u - m.util[i])
		if i < 2*len(n.topo.machines) && i%2 == 1 { // NIC down: what the machine received
			r := &m.recv[i/2]
			*r += w * (moved/iv - *r)
		}
	}
	cross := 0.0
	for _, l := range m.cross {
		cross += m.util[l]
	}
	if len(m.cross) > 0 {
		cross /= float64(len(m.cross))
	}
	m.k++
	m.next = float64(m.k+1) * iv
	m.last = Sample{
		Time:                 t,
		CrossRackUtilization: cross,
		Saturated:            len(m.cross) > 0 && cross >= m.cfg.Threshold,
		ReceiveRate:          m.recv,
		LinkUtilization:      m.util,
	}
	if m.cfg.OnSample != nil {
		m.cfg.OnSample(m.last)
	}
}

// Monitor returns the latest sample (zero before the first). Its slices are
// shared with the network and change at the next sample: copy to keep.
func (n *Network) Monitor() Sample {
	if n.mon == nil {
		return Sample{}
	}
	return n.mon.last
}
