package jobpacker

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/tetris"
	"github.com/netsched/netsched/sched/jobpacker/rackplan"
)

var inf = math.Inf(1)

// PlannedJob is the job manager's decision for one recurring job.
type PlannedJob struct {
	Profile
	Heavy     bool
	Pair      Pair      // racks used by its maps and reduces
	MapRacks  []int     // R_j^map: where its input goes
	RedRacks  []int     // where its reduces run
	MapQuota  []int     // maps planned per rack (by rack)
	RedQuota  []int     // reduces planned per rack (by rack)
	Start     float64   // planned start of its first task
	MapsDone  float64   // planned end of its last map (cmp^map)
	End       float64   // planned completion
	mapStarts []float64 // planned first map start per rack
	redStarts []float64 // planned first reduce start per rack
}

// manager is the offline scheduler's job manager (§4.3.2) for one plan.
type manager struct {
	model Model
	racks *racks
	jobs  []*PlannedJob
}

// order returns the recurring jobs in the order the job manager schedules
// them. Batch (every job predicted at the same time): B sub-batches of
// similar demand (Tetris, §4.3.2 and Fig. 6), each sorted by width then
// latency, both descending, combined in a random order drawn from r.
// Online: by predicted arrival, equal arrivals as inside a sub-batch.
func order(m Model, ps []Profile, batch bool, subBatches int, r *rand.Rand) ([]Profile, error) {
	width := make([]float64, len(ps))
	lat := make([]float64, len(ps))
	for i, p := range ps {
		width[i], lat[i] = m.Width(p), m.SortLatency(p)
	}
	byWidth := func(idx []int) {
		sort.SliceStable(idx, func(a, b int) bool {
			x, y := idx[a], idx[b]
			if width[x] != width[y] {
				return width[x] > width[y]
			}
			if lat[x] != lat[y] {
				return lat[x] > lat[y]
			}
			return ps[x].Seq < ps[y].Seq
		})
	}
	var idx []int
	if !batch {
		idx = make([]int, len(ps))
		for i := range idx {
			idx[i] = i
		}
		byWidth(idx)
		sort.SliceStable(idx, func(a, b int) bool { return ps[idx[a]].Arrival < ps[idx[b]].Arrival })
	} else {
		subs, err := SubBatches(ps, subBatches)
		if err != nil {
			return nil, err
		}
		for _, b := range r.Perm(len(subs)) {
			byWidth(subs[b])
			idx = append(idx, subs[b]...)
		}
	}
	out := make([]Profile, len(idx))
	for i, k := range idx {
		out[i] = ps[k]
	}
	return out, nil
}

// SubBatches divides jobs into b sub-batches whose demands are alike
// (§4.3.2): each sub-batch is a Tetris bin with a b-th of the batch's
// total demand in every dimension, each job an item demanding its shuffle
// bytes, its map tasks and its reduce tasks. It returns the indexes of each
// sub-batch's jobs in forecast order; empty sub-batches are dropped.
func SubBatches(ps []Profile, b int) ([][]int, error) {
	items := make([][]float64, len(ps))
	for i, p := range ps {
		items[i] = []float64{p.Shuffle, float64(p.Maps), float64(p.Reduces)}
	}
	bin, err := tetris.Pack(items, tetris.Shares(items, 3, b), b)
	if err != nil {
		return nil, err
	}
	subs := make([][]int, b)
	for i, k := range bin {
		subs[k] = append(subs[k], i)
	}
	var out [][]int
	for _, s := range subs {
		if len(s) > 0 {
			out = append(out, s)
		}
	}
	return out, nil
}

// schedule plans one job at the earliest completion the racks allow.
func (mg *manager) schedule(p Profile) *PlannedJob {
	var pl *PlannedJob
	if mg.model.Heavy(p) {
		pl = mg.scheduleHeavy(p)
	} else {
		pl = mg.scheduleLight(p)
	}
	mg.jobs = append(mg.jobs, pl)
	return pl
}

// scheduleLight places a non-shuffle-heavy job: its maps on the first
// containers free in the whole cluster, its reduces likewise from the end
// of its last map plus the shuffle latency.
func (mg *manager) scheduleLight(p Profile) *PlannedJob {
	m := mg.model
	R := len(mg.racks.free)
	pl := &PlannedJob{Profile: p, MapQuota: make([]int, R), RedQuota: make([]int, R)}
	cnt, first, end := mg.racks.runPool(m.reserved(p.Maps), p.MapTime, p.Arrival)
	pl.mapStarts = first
	pl.MapRacks = spread(cnt, p.Maps, pl.MapQuota)
	pl.MapsDone = end
	pl.Pair.Map = len(pl.MapRacks)
	pl.Start = minOf(first)
	pl.End = end
	if p.Reduces > 0 {
		pl.Pair.Reduce = min(R, max(1, m.reserved(p.Reduces)/max(1, m.Containers)))
		ready := end + m.ShuffleLatency(p, Pair{max(1, pl.Pair.Map), pl.Pair.Reduce})
		cnt, first, end := mg.racks.runPool(m.reserved(p.Reduces), p.ReduceTime, ready)
		pl.redStarts = first
		pl.RedRacks = spread(cnt, p.Reduces, pl.RedQuota)
		pl.Pair.Reduce = len(pl.RedRacks)
		pl.End = end
	}
	return pl
}

// spread turns the containers a job reserved per rack into quotas of its n
// real tasks, in proportion (rounded up, so they cover n), and returns the
// racks used.
func spread(count []int, n int, quota []int) []int {
	total := 0
	for _, c := range count {
		total += c
	}
	var used []int
	for r, c := range count {
		if c == 0 || total == 0 {
			continue
		}
		quota[r] = (c*n + total - 1) / total
		if quota[r] > 0 {
			used = append(used, r)
		}
	}
	return used
}

func minOf(xs []float64) float64 {
	m := inf
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

// trial is one evaluated (map-width, reduce-width) of a shuffle-heavy job.
type trial struct {
	pair               Pair
	mapRacks, redRacks []int
	mapsDone, end      float64
}

// scheduleHeavy tries every feasible pair: for r^map, the r^map racks that
// have ceil(N^map/r^map) containers free earliest run the maps (their
// containers' free times are advanced); for r^red, the r^red racks that
// have ceil(N^red/r^red) containers free earliest after the maps end plus
// the shuffle latency run the reduces. The pair with the earliest
// completion wins (ties: fewer racks, then fewer map racks), and its
// containers are committed.
func (mg *manager) scheduleHeavy(p Profile) *PlannedJob {
	m := mg.model
	byMap := map[int][]Pair{}
	var widths []int
	for _, pr := range m.Feasible(p) {
		if _, ok := byMap[pr.Map]; !ok {
			widths = append(widths, pr.Map)
		}
		byMap[pr.Map] = append(byMap[pr.Map], pr)
	}
	best := trial{end: inf}
	better := func(t trial) bool {
		if t.end != best.end {
			return t.end < best.end
		}
		if a, b := t.pair.Map+t.pair.Reduce, best.pair.Map+best.pair.Reduce; a != b {
			return a < b
		}
		return t.pair.Map < best.pair.Map
	}
	for _, rm := range widths {
		nm := ceilDiv(m.reserved(p.Maps), rm)
		mapRacks := mg.racks.earliest(rm, nm, p.Arrival, func(r int) []float64 { return mg.racks.free[r] })
		if len(mapRacks) < rm {
			continue
		}
		after := map[int][]float64{}
		mapsDone := p.Arrival
		for _, r := range mapRacks {
			f := append([]float64(nil), mg.racks.free[r]...)
			_, last := run(f, nm, p.MapTime, p.Arrival)
			after[r] = f
			mapsDone = max(mapsDone, last)
		}
		get := func(r int) []float64 {
			if f, ok := after[r]; ok {
				return f
			}
			return mg.racks.free[r]
		}
		for _, pr := range byMap[rm] {
			t := trial{pair: pr, mapRacks: mapRacks, mapsDone: mapsDone, end: mapsDone}
			if p.Reduces > 0 {
				ready := mapsDone + m.ShuffleLatency(p, pr)
				nr := ceilDiv(m.reserved(p.Reduces), pr.Reduce)
				t.redRacks = mg.racks.earliest(pr.Reduce, nr, ready, get)
				if len(t.redRacks) < pr.Reduce {
					continue
				}
				for _, r := range t.redRacks {
					f := append([]float64(nil), get(r)...)
					_, last := run(f, nr, p.ReduceTime, ready)
					t.end = max(t.end, last)
				}
			}
			if better(t) {
				best = t
			}
		}
	}
	if best.end == inf { // no rack has containers: cannot happen on a valid cluster
		return mg.scheduleLight(p)
	}
	return mg.commitHeavy(p, best)
}

// commitHeavy advances the chosen racks' containers and records the plan.
func (mg *manager) commitHeavy(p Profile, t trial) *PlannedJob {
	m := mg.model
	R := len(mg.racks.free)
	pl := &PlannedJob{Profile: p, Heavy: true, Pair: t.pair, MapRacks: sorted(t.mapRacks), RedRacks: sorted(t.redRacks),
		MapQuota: make([]int, R), RedQuota: make([]int, R), mapStarts: fill(R, inf), redStarts: fill(R, inf), Start: inf}
	nm := ceilDiv(m.reserved(p.Maps), t.pair.Map)
	for i, r := range t.mapRacks {
		first, last := run(mg.racks.free[r], nm, p.MapTime, p.Arrival)
		pl.mapStarts[r] = first
		pl.Start = min(pl.Start, first)
		pl.MapsDone = max(pl.MapsDone, last)
		pl.MapQuota[r] = share(p.Maps, t.pair.Map, i)
	}
	pl.End = pl.MapsDone
	if p.Reduces > 0 {
		ready := pl.MapsDone + m.ShuffleLatency(p, t.pair)
		nr := ceilDiv(m.reserved(p.Reduces), t.pair.Reduce)
		for i, r := range t.redRacks {
			first, last := run(mg.racks.free[r], nr, p.ReduceTime, ready)
			pl.redStarts[r] = first
			pl.End = max(pl.End, last)
			pl.RedQuota[r] = share(p.Reduces, t.pair.Reduce, i)
		}
	}
	return pl
}

// share is the i-th of k racks' part of n tasks: n/k, the first n mod k
// racks one more ("we evenly distribute the map and reduce tasks", §4.3).
func share(n, k, i int) int {
	q := n / k
	if i < n%k {
		q++
	}
	return q
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

func sorted(xs []int) []int {
	out := append([]int(nil), xs...)
	sort.Ints(out)
	return out
}

func fill(n int, x float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = x
	}
	return out
}

// rackPlan is the plan the real-time scheduler follows: each job's maps
// and reduces on each of its racks, with their quotas, ordered by planned
// start; and each job's map racks for its input.
func (mg *manager) rackPlan() *rackplan.Plan {
	pl := rackplan.New(len(mg.racks.free))
	for _, j := range mg.jobs {
		for r, q := range j.MapQuota {
			if q > 0 {
				pl.Add(r, rackplan.Entry{Job: j.ID, Kind: rackplan.Maps, Quota: q, Start: j.mapStarts[r]})
			}
		}
		for r, q := range j.RedQuota {
			if q > 0 {
				pl.Add(r, rackplan.Entry{Job: j.ID, Kind: rackplan.Reduces, Quota: q, Start: j.redStarts[r]})
			}
		}
		in := rackplan.Input{Racks: j.MapRacks}
		for _, r := range j.MapRacks {
			in.Splits = append(in.Splits, j.MapQuota[r])
		}
		pl.Input[j.ID] = in
	}
	pl.Sort()
	return pl
}

// containersPerRack counts each rack's slots.
func containersPerRack(v sched.View) []int {
	out := make([]int, v.Racks())
	for r := range out {
		for _, m := range v.RackMachines(r) {
			out[r] += v.Machine(m).Slots()
		}
	}
	return out
}
