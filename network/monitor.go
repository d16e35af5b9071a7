package network

import (
	"fmt"
	"math"
)

// maxSamples bounds the samples a run takes: sample k is at k x Interval,
// exact while k is below 2^53. It is far beyond any real run (2^53 seconds
// are 285 million years), but a link slowed to nothing by a typo puts the
// next event there; then the run stops with an error instead of counting
// samples one by one past where float64 counts exactly.
const maxSamples = 1 << 53

// monitor samples the network every Interval: the utilisation of every link
// and the receive rate of every machine over the interval, then smoothed
// with an EMA of weight 1-exp(-Interval/Window). A sample costs O(links),
// whatever the number of flows, and nothing is done between samples.
//
// Idle time is free. A link whose load did not change during an interval
// moved load × Interval bytes in it (not a difference of byte counters, which
// would differ in the last bits from one interval to the next), so while no
// load changes every EMA sees the same input and reaches a floating-point
// fixpoint within a few thousand samples. From then on the monitor rests:
// the samples up to the next load change are identical but for their time,
// and the network skips them in one step (counted, and reported once to
// OnSample with their number), with the same results as taking them one by
// one (TestMonitorRestIsExact).
type monitor struct {
	cfg    MonitorConfig
	k      int     // samples taken (or skipped)
	next   float64 // time of the next sample
	prevT  float64 // time of the previous sample
	weight float64
	prev   []float64 // link byte counters at the previous sample
	util   []float64 // smoothed utilisation per link
	recv   []float64 // smoothed bytes/s per machine
	cross  []int32   // rack up and down links
	last   Sample
	// resting: the last sample changed no reading and every link's load was
	// constant over its interval; the samples until a load changes repeat it.
	resting bool
	noRest  bool // take every sample (tests compare the two)
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

// counter is the link's byte counter at time t (at or after its last load
// change), computed without moving the link's own integration point, so
// that it is the same whenever it is asked.
func counter(ln *link, t float64) float64 {
	if t > ln.last {
		return ln.bytes + ln.load*(t-ln.last)
	}
	return ln.bytes
}

// sample takes the reading due at time t (rates must be current).
func (m *monitor) sample(n *Network, t float64) {
	iv := m.cfg.Interval
	w := m.weight
	still := !m.noRest // no reading changed and no load changed
	for i := range n.links {
		ln := &n.links[i]
		c := counter(ln, t)
		moved := c - m.prev[i]
		if ln.last <= m.prevT {
			moved = ln.load * iv // constant over the interval
		} else {
			still = false
		}
		m.prev[i] = c
		u := 0.0
		if ln.cap > 0 {
			u = moved / (ln.cap * iv)
		}
		old := m.util[i]
		m.util[i] += w * (u - m.util[i])
		still = still && m.util[i] == old
		if i < 2*len(n.topo.machines) && i%2 == 1 { // NIC down: what the machine received
			r := &m.recv[i/2]
			old := *r
			*r += w * (moved/iv - *r)
			still = still && *r == old
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
	m.prevT = t
	m.next = float64(m.k+1) * iv
	m.resting = still
	m.last = Sample{
		Time:                 t,
		Count:                1,
		Since:                t,
		CrossRackUtilization: cross,
		Saturated:            len(m.cross) > 0 && cross >= m.cfg.Threshold,
		ReceiveRate:          m.recv,
		LinkUtilization:      m.util,
	}
	if m.cfg.OnSample != nil {
		m.cfg.OnSample(m.last)
	}
}

// skip takes, in one step, the samples of a resting monitor that fall
// strictly before limit (within the event tolerance), where each would have
// been alone in its step: identical readings at later times. The network is
// at the time of the last one afterwards.
func (m *monitor) skip(n *Network, limit float64) {
	if !m.resting || m.noRest || math.IsInf(limit, 0) || math.IsNaN(limit) {
		return
	}
	iv := m.cfg.Interval
	due := func(k int) bool { return Apart(float64(k)*iv, limit) }
	if !due(m.k + 1) {
		return
	}
	if limit/iv >= maxSamples {
		n.err = fmt.Errorf("network: t=%gs: the next event is at t=%gs, %.3g monitor intervals of %gs away, beyond the %.3g samples whose times are exact: "+
			"a link is probably far slower than intended (check goodput, nic, rack_uplink, rack_downlink and port speeds)", n.now, limit, limit/iv, iv, float64(maxSamples))
		return
	}
	// The last due sample: an estimate, then corrected with the exact test
	// (a few steps: the estimate is off by the event tolerance at most).
	K := max(m.k+1, int(limit/iv))
	for !due(K) {
		K--
	}
	for due(K + 1) {
		K++
	}
	first := float64(m.k+1) * iv
	t := float64(K) * iv
	for i := range n.links {
		m.prev[i] = counter(&n.links[i], t)
	}
	count := K - m.k
	m.k = K
	m.prevT = t
	m.next = float64(K+1) * iv
	n.now = max(n.now, t)
	m.last.Time = t
	m.last.Since = first
	m.last.Count = count
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
