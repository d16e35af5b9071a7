package network

import "fmt"

// Link layout (indices into Network.links, stable for a Network's life):
//
//	2m, 2m+1                      machine m NIC up, down       "m<m>.up", "m<m>.down"
//	2M+2r, 2M+2r+1                rack r up, down (two-tier)   "r<r>.up", "r<r>.down"
//	2M+2R+2r, 2M+2R+2r+1          OCS port of rack r (hybrid)  "ocs.r<r>.tx", "ocs.r<r>.rx"
//
// A circuit i->j uses the transmit port of rack i and the receive port of rack
// j. The matching gives every port at most one circuit, so two port links are
// exactly one circuit link of PortSpeed, with names that do not change when
// circuits do.
type link struct {
	name string
	cap  float64

	exp   float64 // load of the explicit-rate bundles crossing it
	nexp  int32   // how many there are (exp is reset to exactly 0 with the last)
	load  float64 // bytes/s as of the last allocation: exp + every class's load
	bytes float64 // bytes carried up to time last
	last  float64

	// load before the allocation in progress changed it (valid when loadEp
	// is that allocation's epoch).
	oldLoad float64
	loadEp  uint64
	delta   uint64 // allocation in which its load changed (a seed for lower classes)
	mark    uint64 // allocation scratch
}

func newLink(name string, c float64) link {
	return link{name: name, cap: c}
}

// advance integrates the link's load up to now.
func (l *link) advance(now float64) {
	if now > l.last {
		l.bytes += l.load * (now - l.last)
		l.last = now
	}
}

// pathKind classifies a bundle's route for the byte counters.
type pathKind uint8

const (
	pathIntra pathKind = iota // NICs only
	pathEPS                   // through rack links and the electrical core
	pathOCS                   // through a circuit
)

type topology struct {
	kind     Kind
	machines []Machine
	racks    int
	rackBase int32 // index of r0.up, or -1
	ocsBase  int32 // index of ocs.r0.tx, or -1
}

func buildTopology(cfg Config) (topology, []link) {
	M := len(cfg.Machines)
	t := topology{kind: cfg.Kind, machines: cfg.Machines, racks: cfg.Racks, rackBase: -1, ocsBase: -1}
	links := make([]link, 0, 2*M+4*cfg.Racks)
	for i, m := range cfg.Machines {
		links = append(links,
			newLink(fmt.Sprintf("m%d.up", i), m.NICUp),
			newLink(fmt.Sprintf("m%d.down", i), m.NICDown))
	}
	if cfg.Kind == NonBlocking {
		return t, links
	}
	// Derived rack speeds: the rack's NIC sum over the oversubscription ratio.
	up := make([]float64, cfg.Racks)
	down := make([]float64, cfg.Racks)
	for _, m := range cfg.Machines {
		up[m.Rack] += m.NICUp
		down[m.Rack] += m.NICDown
	}
	t.rackBase = int32(len(links))
	for r := range cfg.Racks {
		u, d := cfg.RackUp, cfg.RackDown
		if u == 0 {
			u = up[r] / cfg.Oversubscription
		}
		if d == 0 {
			d = down[r] / cfg.Oversubscription
		}
		links = append(links,
			newLink(fmt.Sprintf("r%d.up", r), u),
			newLink(fmt.Sprintf("r%d.down", r), d))
	}
	if cfg.Kind == Hybrid {
		t.ocsBase = int32(len(links))
		for r := range cfg.Racks {
			links = append(links,
				newLink(fmt.Sprintf("ocs.r%d.tx", r), cfg.OCS.PortSpeed),
				newLink(fmt.Sprintf("ocs.r%d.rx", r), cfg.OCS.PortSpeed))
		}
	}
	return t, links
}

// kindOf says how a src->dst flow travels when circuits are not considered.
func (t *topology) kindOf(src, dst int32) pathKind {
	if t.machines[src].Rack == t.machines[dst].Rack {
		return pathIntra
	}
	return pathEPS
}

// route writes the links of k's path of the given kind into r and returns
// how many there are. Non-blocking networks have no rack links: every path
// is NIC up, NIC down. A flow from a rack (k.fromRack, never intra-rack)
// has no source NIC.
func (t *topology) route(r *[4]int32, k bundleKey, p pathKind) uint8 {
	src, dst := k.src, k.dst
	rs, rd := int32(t.machines[src].Rack), int32(t.machines[dst].Rack)
	var up, down int32 // the path's links past the source NIC, if any
	switch {
	case p == pathOCS:
		up, down = t.ocsBase+2*rs, t.ocsBase+2*rd+1
	case p == pathEPS && t.rackBase >= 0:
		up, down = t.rackBase+2*rs, t.rackBase+2*rd+1
	default:
		r[0], r[1] = 2*src, 2*dst+1
		return 2
	}
	if k.fromRack {
		r[0], r[1], r[2] = up, down, 2*dst+1
		return 3
	}
	r[0], r[1], r[2], r[3] = 2*src, up, down, 2*dst+1
	return 4
}
