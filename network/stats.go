package network

// Stats returns the cumulative byte counters at the current time. It sums
// over the groups: O(groups).
func (n *Network) Stats() Stats {
	by := n.doneBytes
	for _, g := range n.groups {
		dt := n.now - g.last
		for k := range by {
			by[k] += g.served[k] + g.rate*g.nk[k]*dt
		}
	}
	s := Stats{
		IntraRackBytes: by[pathIntra],
		EPSBytes:       by[pathEPS],
		OCSBytes:       by[pathOCS],
	}
	s.CrossRackBytes = s.EPSBytes + s.OCSBytes
	if n.ocs != nil {
		s.Reconfigurations = n.ocs.changes
	}
	return s
}

// Links describes every link, in the index order used by LinkLoad and
// Sample.LinkUtilization.
func (n *Network) Links() []LinkInfo {
	out := make([]LinkInfo, len(n.links))
	for i := range n.links {
		// The layout of topology.go: pairs (up, down) per machine, then per
		// rack, then per OCS port.
		info := LinkInfo{Name: n.links[i].name, Capacity: n.links[i].cap, Index: i / 2, Up: i%2 == 0}
		switch {
		case n.topo.ocsBase >= 0 && i >= int(n.topo.ocsBase):
			info.Kind, info.Index = LinkOCSPort, (i-int(n.topo.ocsBase))/2
		case n.topo.rackBase >= 0 && i >= int(n.topo.rackBase):
			info.Kind, info.Index = LinkRack, (i-int(n.topo.rackBase))/2
		}
		out[i] = info
	}
	return out
}

// LinkLoad returns the current bytes/s on every link.
func (n *Network) LinkLoad() []float64 {
	n.flush()
	out := make([]float64, len(n.links))
	for i := range n.links {
		out[i] = n.links[i].load
	}
	return out
}
