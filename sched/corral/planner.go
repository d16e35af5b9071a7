package corral

import (
	"sort"

	"github.com/netsched/netsched/sched/jobpacker/rackplan"
)

// schedule is one list schedule of the jobs with r[i] racks each
// (baselines.md §7, prioritization): jobs in priority order each take the
// r[i] racks that free up earliest, start when the last of them is free
// (not before the job's arrival) and hold them for L(r[i]). It returns the
// start and end of every job and the racks each took.
type schedule struct {
	start, end []float64
	racks      [][]int
}

func (c cluster) list(jobs []job, r []int, batch bool) schedule {
	n := len(jobs)
	s := schedule{start: make([]float64, n), end: make([]float64, n), racks: make([][]int, n)}
	lat := make([]float64, n)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
		lat[i] = c.lrf(jobs[i], r[i])
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := idx[a], idx[b]
		if !batch && jobs[x].arrival != jobs[y].arrival {
			return jobs[x].arrival < jobs[y].arrival
		}
		if r[x] != r[y] {
			return r[x] > r[y] // widest first
		}
		if lat[x] != lat[y] {
			return lat[x] > lat[y] // then longest first
		}
		return jobs[x].seq < jobs[y].seq
	})
	free := make([]float64, c.racks)
	order := make([]int, c.racks)
	for _, i := range idx {
		for k := range order {
			order[k] = k
		}
		sort.SliceStable(order, func(a, b int) bool { return free[order[a]] < free[order[b]] })
		chosen := append([]int(nil), order[:r[i]]...)
		st := jobs[i].arrival
		for _, k := range chosen {
			st = max(st, free[k])
		}
		s.start[i], s.end[i] = st, st+lat[i]
		for _, k := range chosen {
			free[k] = s.end[i]
		}
		sort.Ints(chosen)
		s.racks[i] = chosen
	}
	return s
}

// objective is the makespan (batch) or the mean completion time (online).
func objective(jobs []job, s schedule, batch bool) float64 {
	if batch {
		m := 0.0
		for _, e := range s.end {
			m = max(m, e)
		}
		return m
	}
	sum := 0.0
	for i, e := range s.end {
		sum += e - jobs[i].arrival
	}
	return sum / float64(max(1, len(jobs)))
}

// provision alternates provisioning and prioritization (baselines.md §7):
// every job starts on one rack; each step gives one more rack to the job
// that ends last (batch) or has the longest completion time (online, our
// choice: the paper's rule for picking the job is not verified) among
// those that can still grow, and reschedules; the best schedule is kept.
// It stops when no job can grow, after maxSteps steps, or after as many
// steps without improvement as there are jobs.
func (c cluster) provision(jobs []job, batch bool, maxSteps int) ([]int, schedule) {
	n := len(jobs)
	r := make([]int, n)
	for i := range r {
		r[i] = 1
	}
	cur := c.list(jobs, r, batch)
	best, bestR, bestObj := cur, append([]int(nil), r...), objective(jobs, cur, batch)
	for step, stale := 0, 0; step < maxSteps && stale < n; step++ {
		pick, worst := -1, -1.0
		for i := range jobs {
			if r[i] >= c.racks {
				continue
			}
			key := cur.end[i]
			if !batch {
				key -= jobs[i].arrival
			}
			if key > worst {
				pick, worst = i, key
			}
		}
		if pick < 0 {
			break
		}
		r[pick]++
		cur = c.list(jobs, r, batch)
		if obj := objective(jobs, cur, batch); obj < bestObj {
			best, bestR, bestObj, stale = cur, append([]int(nil), r...), obj, 0
		} else {
			stale++
		}
	}
	return bestR, best
}

// rackPlan turns the best schedule into the plan the follower carries
// out: every job on each of its racks, any of its tasks, ordered by
// planned start; its input on those racks.
func rackPlan(racks int, jobs []job, s schedule) *rackplan.Plan {
	p := rackplan.New(racks)
	for i, j := range jobs {
		for _, r := range s.racks[i] {
			p.Add(r, rackplan.Entry{Job: j.id, Kind: rackplan.AllStages, Start: s.start[i]})
		}
		p.Input[j.id] = rackplan.Input{Racks: s.racks[i]}
	}
	p.Sort()
	return p
}
