package jobpacker

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// Profile is what the offline scheduler knows of a recurring job, read
// from its Forecast (the knowledge model's estimates, §2.3: recurring
// jobs' characteristics are predictable).
type Profile struct {
	ID         string
	Seq        int     // position in the forecast (ties break by it)
	Arrival    float64 // predicted arrival, seconds
	Maps       int     // tasks of the root stages
	Reduces    int     // tasks of the other stages
	MapTime    float64 // mean seconds per map task
	ReduceTime float64 // mean seconds per reduce task
	Shuffle    float64 // D^s: estimated output of the maps that other stages read, bytes
	Input      float64 // estimated DFS input, bytes
}

// ProfileOf reads a job's forecast: root stages (no parent stage) are its
// maps, every other stage its reduces; the shuffle is what the maps write
// for stages that read them.
func ProfileOf(f sched.Forecast, seq int) Profile {
	p := Profile{ID: f.ID, Seq: seq, Arrival: f.Arrival}
	read := map[string]bool{}
	for _, st := range f.Stages {
		for _, par := range st.Parents {
			read[par] = true
		}
	}
	var mapWork, redWork float64
	for _, st := range f.Stages {
		if len(st.Parents) == 0 {
			p.Maps += st.Tasks
			mapWork += st.Compute
			p.Input += st.Input
			if read[st.ID] {
				p.Shuffle += st.Output
			}
			continue
		}
		p.Reduces += st.Tasks
		redWork += st.Compute
	}
	if p.Maps > 0 {
		p.MapTime = mapWork / float64(p.Maps)
	}
	if p.Reduces > 0 {
		p.ReduceTime = redWork / float64(p.Reduces)
	}
	return p
}

// Model is the job profiler's latency model (§4.3.1, eq. 1) on a cluster
// of Racks racks of Containers containers each.
type Model struct {
	Racks      int
	Containers int     // per rack
	OCS        float64 // bytes/s of a rack's OCS port
	EPS        float64 // bytes/s of a rack's EPS uplink
	Elephant   float64 // bytes: flows (or aggregated transfers) at or above it may use a circuit
	Over       float64 // over-provisioning ratio: the plan reserves (1+Over) x the containers a job needs
}

// Pair is a (map-width, reduce-width): the racks running a job's maps
// and its reduces.
type Pair struct{ Map, Reduce int }

// Containers the plan reserves for n tasks: n x (1 + over-provisioning),
// rounded up (§4.3, "Over-provisioning").
func (m Model) reserved(n int) int {
	return int(math.Ceil(float64(n)*(1+m.Over) - 1e-9))
}

// waves is how many rounds n tasks need on r racks: ceil(reserved(n) /
// (r x containers)), at least 1 when there are tasks.
func (m Model) waves(n, r int) int {
	if n == 0 {
		return 0
	}
	c := r * max(1, m.Containers)
	return (m.reserved(n) + c - 1) / c
}

// MapLatency is l^map(r): the map waves on r racks times a map's duration
// (Corral's LRF, the model eq. 1 refers to).
func (m Model) MapLatency(p Profile, r int) float64 { return float64(m.waves(p.Maps, r)) * p.MapTime }

// ReduceLatency is l^red(r), likewise for reduces.
func (m Model) ReduceLatency(p Profile, r int) float64 {
	return float64(m.waves(p.Reduces, r)) * p.ReduceTime
}

// Chunk is what each (map rack, reduce rack) pair transfers when the maps
// and reduces are spread evenly: D^s / (r^map x r^red).
func (m Model) Chunk(p Profile, pr Pair) float64 {
	return p.Shuffle / float64(pr.Map*pr.Reduce)
}

// UsesOCS is the paper's test: the pair's chunk is large enough for a
// circuit (§4.3.1; "greater than" the threshold there, "at or above" in
// the network, which is what decides).
func (m Model) UsesOCS(p Profile, pr Pair) bool { return m.Chunk(p, pr) >= m.Elephant }

// ShuffleLatency is l^shu = D_j / BW with the paper's D_j = chunk x
// (r^red - 1), the bytes a map rack sends to the other reduce racks, taken
// at the busier side: a reduce rack likewise receives chunk x (r^map - 1),
// so with one reduce rack and three map racks it is two chunks, not
// zero. BW is a rack's OCS port when UsesOCS, else its EPS uplink. This is
// Fig. 2's arithmetic: 4 racks, chunks of 6.25, three rounds, 18.75.
func (m Model) ShuffleLatency(p Profile, pr Pair) float64 {
	if p.Shuffle == 0 {
		return 0
	}
	bw := m.EPS
	if m.UsesOCS(p, pr) {
		bw = m.OCS
	}
	return m.Chunk(p, pr) * float64(max(pr.Map, pr.Reduce)-1) / bw
}

// Latency is eq. 1: L(r^map, r^red) = l^map + l^shu + l^red.
func (m Model) Latency(p Profile, pr Pair) float64 {
	return m.MapLatency(p, pr.Map) + m.ShuffleLatency(p, pr) + m.ReduceLatency(p, pr.Reduce)
}

// Heavy is the paper's shuffle-heavy test on the predicted shuffle.
func (m Model) Heavy(p Profile) bool { return p.Shuffle > m.Elephant }

// parallel reports a pair that keeps the job's full parallelism: its maps
// and its reduces need no more waves than on the whole cluster.
func (m Model) parallel(p Profile, pr Pair) bool {
	return m.waves(p.Maps, pr.Map) == m.waves(p.Maps, m.Racks) && m.waves(p.Reduces, pr.Reduce) == m.waves(p.Reduces, m.Racks)
}

// Feasible lists the (map-width, reduce-width) pairs of a shuffle-heavy
// job that use the OCS without giving up parallelism (Fig. 5's green
// zone), in (map, reduce) order. When no pair does both (a job with many
// maps and a shuffle too small to split over that many racks), eq. 1
// arbitrates between aggregation and parallelism: the pairs of least
// latency L, whichever network they use.
func (m Model) Feasible(p Profile) []Pair {
	var both []Pair
	for rm := 1; rm <= m.Racks; rm++ {
		for rr := 1; rr <= m.Racks; rr++ {
			if pr := (Pair{rm, rr}); m.UsesOCS(p, pr) && m.parallel(p, pr) {
				both = append(both, pr)
			}
		}
	}
	if len(both) > 0 {
		return both
	}
	best := inf
	for rm := 1; rm <= m.Racks; rm++ {
		for rr := 1; rr <= m.Racks; rr++ {
			best = min(best, m.Latency(p, Pair{rm, rr}))
		}
	}
	var out []Pair
	for rm := 1; rm <= m.Racks; rm++ {
		for rr := 1; rr <= m.Racks; rr++ {
			if m.Latency(p, Pair{rm, rr}) <= best*(1+1e-9) {
				out = append(out, Pair{rm, rr})
			}
		}
	}
	return out
}

// Width is the sort key of the batch scenario (§4.3.2): for a
// shuffle-heavy job the largest r^map + r^red among its feasible pairs;
// for another job its tasks over a rack's containers.
func (m Model) Width(p Profile) float64 {
	if !m.Heavy(p) {
		return float64(m.reserved(p.Maps)+m.reserved(p.Reduces)) / float64(max(1, m.Containers))
	}
	w := 0
	for _, pr := range m.Feasible(p) {
		w = max(w, pr.Map+pr.Reduce)
	}
	return float64(w)
}

// SortLatency is the second sort key: the latency at the job's best
// feasible pair (shuffle-heavy), or spread over the whole cluster.
func (m Model) SortLatency(p Profile) float64 {
	if !m.Heavy(p) {
		return m.Latency(p, Pair{m.Racks, m.Racks})
	}
	best := math.Inf(1)
	for _, pr := range m.Feasible(p) {
		best = min(best, m.Latency(p, pr))
	}
	return best
}
