package dawn

import (
	"fmt"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomIndexScenario is a Dawn run that stresses the decision index's
// order and ties: many jobs of identical sizes (equal keys and Nodes),
// DFS input with replicas (units with data on the offered machine), Tez
// jobs whose two scans are live together (equal Seq: the join order
// decides), middle stages and broadcast edges, workflows, pinned tasks,
// up to five users, and Dawn's options varied.
func randomIndexScenario(rng *rand.Rand) string {
	var b strings.Builder
	racks, perRack, slots := 2+rng.IntN(4), 2+rng.IntN(4), 1+rng.IntN(2)
	machines := racks * perRack
	fmt.Fprintf(&b, "cluster: {racks: %d, machines_per_rack: %d, slots_per_machine: %d, nic: 1GB/s}\n", racks, perRack, slots)
	fmt.Fprintf(&b, "network: {topology: two-tier, oversubscription: %d, monitor: {threshold: %g}}\n",
		1+rng.IntN(4), []float64{0.01, 0.3, 0.6, 0.99}[rng.IntN(4)])
	fmt.Fprintf(&b, "dfs: {block: %dMB, replicas: %d}\n", []int{16, 64}[rng.IntN(2)], 1+rng.IntN(3))
	b.WriteString("output: {tasks: true}\nworkload:\n  jobs:\n")
	n := 20 + rng.IntN(60)
	users := 1 + rng.IntN(5)
	sizes := []int{1 + rng.IntN(200), 1 + rng.IntN(200)} // few sizes: ties
	size := func() int {
		if rng.IntN(3) > 0 {
			return sizes[rng.IntN(2)]
		}
		return 1 + rng.IntN(200)
	}
	arrivals := make([]float64, n)
	for i := range n {
		arrival := float64(rng.IntN(20)) * 0.5
		after := ""
		if i > 0 && rng.IntN(3) == 0 { // a workflow job: reads one or two earlier jobs
			k, q := rng.IntN(i), rng.IntN(i)
			after = fmt.Sprintf("after: [j%03d], ", k)
			if q != k && rng.IntN(2) == 0 {
				after = fmt.Sprintf("after: [j%03d, j%03d], ", k, q)
				arrival = max(arrival, arrivals[q])
			}
			arrival = max(arrival, arrivals[k])
		}
		arrivals[i] = arrival
		user := string(rune('a' + rng.IntN(users)))
		var stages string
		switch rng.IntN(4) {
		case 0: // Tez: two scans, a join (one broadcast edge), an aggregation
			scan := func(id string) string {
				if after == "" && rng.IntN(2) == 0 {
					return fmt.Sprintf("{id: %s, count: %d, input: %dMB, compute: 1s, output: %dMB}", id, 1+rng.IntN(3), 16*(1+rng.IntN(8)), size())
				}
				if rng.IntN(4) == 0 {
					return fmt.Sprintf("{id: %s, tasks: [{compute: 1s, output: %dMB, pin: %d}]}", id, size(), rng.IntN(machines))
				}
				return fmt.Sprintf("{id: %s, count: %d, compute: 1s, output: %dMB}", id, 1+rng.IntN(3), size())
			}
			pattern := []string{"scatter-gather", "broadcast"}[rng.IntN(2)]
			stages = fmt.Sprintf("%s, %s, {id: join, after: [fact, {stage: dim, pattern: %s}], count: %d, compute: 1s, output_ratio: 0.5}, {id: agg, after: join, count: %d, compute: 0.5s}",
				scan("fact"), scan("dim"), pattern, 1+rng.IntN(3), 1+rng.IntN(2))
		default: // map-reduce, the maps reading DFS input, pinned or computing
			var maps string
			switch {
			case after == "" && rng.IntN(2) == 0:
				maps = fmt.Sprintf("{id: map, count: %d, input: %dMB, compute: 1s, output: %dMB}", 1+rng.IntN(4), 16*(1+rng.IntN(8)), size())
			case rng.IntN(5) == 0:
				maps = fmt.Sprintf("{id: map, tasks: [{compute: 1s, output: %dMB, pin: %d}, {compute: 1s, output: %dMB}]}", size(), rng.IntN(machines), size())
			default:
				maps = fmt.Sprintf("{id: map, count: %d, compute: 1s, output: %dMB}", 1+rng.IntN(4), size())
			}
			stages = fmt.Sprintf("%s, {id: red, after: map, count: %d, compute: 1s, output_ratio: 1}", maps, 1+rng.IntN(3))
		}
		fmt.Fprintf(&b, "    - {id: j%03d, user: %s, arrival: %gs, %sstages: [%s]}\n", i, user, arrival, after, stages)
	}
	on := func() string { return []string{"true", "false"}[rng.IntN(2)] }
	params := []string{
		"balancing: " + on(),
		fmt.Sprintf("balance: %g", []float64{0, 0.3, 0.7, 1}[rng.IntN(4)]),
		"dependency: " + on(),
		"order: " + []string{"adaptive", "adaptive", "least-traffic", "most-traffic"}[rng.IntN(4)],
		"rack_choice: " + []string{"any", "selected"}[rng.IntN(2)],
		"assign_multiple: " + on(),
		"fair_users: " + on(),
		fmt.Sprintf("starve_after: %g", []float64{0, 0, 2, 10}[rng.IntN(4)]),
	}
	b.WriteString("scheduler: {name: dawn, params: {" + strings.Join(params, ", ") + "}}\n")
	return b.String()
}

// pickCounts tallies what checkPick saw.
type pickCounts struct {
	picks, none, machine, tied int
}

// selectPick is Algorithm 1 as decide ran it before the decision index:
// Select over a candidate per live unit (those the decision excluded
// have no preferred rack), per user in fair order with fair_users.
func selectPick(s *Scheduler, rack, m int, saturated bool) *unit {
	var live []*unit
	var cands []Candidate
	for _, u := range s.units {
		if !u.planned || u.st.WaitingCount() == 0 || u.st.Finished() >= u.st.NumTasks() {
			continue
		}
		c := Candidate{Prefs: u.prefs, Node: max(0, u.total-u.node[m]), Seq: u.j.seq}
		if u.excluded == s.stamp {
			c.Prefs = nil
		}
		live = append(live, u)
		cands = append(cands, c)
	}
	if k := oldChoose(s, live, cands, rack, saturated); k >= 0 {
		return live[k]
	}
	return nil
}

// TestIndexPicksMatchSelect: at every choice of every decision, the
// decision index picks the unit Select picks over every live unit, on
// randomised scenarios; then the whole run equals the reference's
// (oldDecide, oldCount, oldPinned), record by record and counter by
// counter.
func TestIndexPicksMatchSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1124))
	runs := 100
	if testing.Short() {
		runs = 25
	}
	var c pickCounts
	var stats Stats
	defer func() { checkPick = nil }()
	for i := range runs {
		doc := randomIndexScenario(rng)
		checkPick = func(s *Scheduler, rack, m int, saturated bool, got *unit) {
			want := selectPick(s, rack, m, saturated)
			if want != got {
				t.Fatalf("scenario %d, rack %d, machine %d, saturated %v: index picks %v, Select %v\n%s",
					i, rack, m, saturated, unitName(got), unitName(want), doc)
			}
			c.picks++
			if got == nil {
				c.none++
				return
			}
			if _, ok := got.node[m]; ok {
				c.machine++
			}
			tied, d := 0, dirOf(saturated)
			for _, u := range s.units {
				if u != got && u.inIdx && u.excluded != s.stamp && u.j.u == got.j.u && u.ka[d] == got.ka[d] && s.eligible(u, rack, d) {
					tied++
				}
			}
			if tied > 0 {
				c.tied++
			}
		}
		got, gs := runKept(t, doc, false)
		checkPick = nil
		want, ws := runKept(t, doc, true)
		if d := schedtest.DiffRecords(want, got); d != "" || ws != gs {
			t.Fatalf("scenario %d: decisions differ (stats %+v vs %+v): %s\n%s", i, ws, gs, d, doc)
		}
		stats.Decisions += gs.Decisions
		stats.Saturated += gs.Saturated
		stats.Balances += gs.Balances
		stats.Pinned += gs.Pinned
		stats.Starved += gs.Starved
		stats.DepPlans += gs.DepPlans
	}
	t.Logf("%d scenarios, %d decisions (%d saturated, %d balances, %d pinned, %d starved, %d dep_reduce plans); %d picks: %d with none, %d won by data on the machine, %d among units of the same key",
		runs, stats.Decisions, stats.Saturated, stats.Balances, stats.Pinned, stats.Starved, stats.DepPlans, c.picks, c.none, c.machine, c.tied)
	if c.machine == 0 || c.tied == 0 || c.none == 0 || stats.Starved == 0 || stats.Balances == 0 || stats.Pinned == 0 ||
		stats.DepPlans == 0 || stats.Saturated == 0 || stats.Saturated == stats.Decisions {
		t.Errorf("the scenarios do not cover machine data, ties, empty picks, starvation, balancing, pins, dep_reduce and both network states")
	}
}

func unitName(u *unit) string {
	if u == nil {
		return "none"
	}
	return fmt.Sprintf("%s/%s (prefs %v, total %g)", u.j.sj.ID(), u.st.ID(), u.prefs, u.total)
}
