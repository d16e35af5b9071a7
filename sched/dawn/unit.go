package dawn

import (
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/workload"
)

// role is where a stage sits in its job, which decides how the online plan
// chooses its racks (§3.2, §3.2.3).
type role int8

const (
	// input stages have no parent stage: a MapReduce job's maps, a Tez
	// job's scans. Proactive task aggregation: max_map (eqs. 2-3).
	input role = iota
	// middle stages read parent stages and feed others (Tez): they only
	// make intermediate data, so max_reduce alone (eq. 4).
	middle
	// output stages read parent stages and write the job's output: a
	// MapReduce job's reduces. max_reduce and dep_reduce (eqs. 4-7).
	output
)

func (r role) String() string { return [...]string{"input", "middle", "output"}[r] }

// Preferred is one preferred rack of a stage and the cross-rack bytes the
// stage would move if its tasks ran there.
type Preferred struct {
	Rack    int
	Traffic float64
}

// unit is one stage of an active job as the online plan sees it: where
// the data its tasks read sits, per rack and per machine, and its
// preferred racks. Dawn speaks of jobs because a MapReduce job has one
// stage that places at a time; a Tez job can have several (parallel scans),
// so the plan is kept per stage.
type unit struct {
	j    *job
	st   sched.Stage
	role role

	planned bool // the data is located and racks chosen (Alg. 2)
	// data[r] is the bytes of the stage's input that sit in rack r (an
	// input block counts in each rack holding a replica); total is all of
	// it. Placing every task in rack r moves total - data[r] across racks:
	// eq. 2 for input stages, eq. 4's terms for the others. A broadcast
	// edge counts once per reading task.
	data  []float64
	node  map[int]float64 // the same per machine (Alg. 1's node-level ties)
	total float64
	out   float64 // estimated output of an output stage (Out_x of eq. 5)

	prefs      []Preferred
	maxRack    int     // max_map or max_reduce
	depRack    int     // dep_reduce (output stages; maxRack otherwise)
	lastServed float64 // when it last got a container (starvation guard)

	// bookkeeping of the kept counts (Scheduler.count, pinUnits)
	counted bool // prefs are in Scheduler.count
	left    bool // finished and dropped from Scheduler.units
	hasPin  bool // a task of the stage is pinned, counted in pinUnits

	// the decision index (index.go)
	ord        int        // join order: Select's last tie (a job's stages share Seq)
	inIdx      bool       // live and in the index's sets (mem)
	every      [2]bool    // per direction: eligible for every rack
	ka, kb     [2]float64 // per direction: the sets' keys (key, Node off its data)
	mem        []member   // the sets holding it
	smem       []member   // the starvation guard's sets holding it
	excluded   int        // the decision (Scheduler.stamp) that found its tasks pinned elsewhere
	inMachines bool       // listed in Scheduler.byMachine under its node map's machines
}

// traffic is the bytes the stage moves across racks if it runs in rack r.
func (u *unit) traffic(r int) float64 { return max(0, u.total-u.data[r]) }

// prefers reports whether r is one of the stage's preferred racks.
func (u *unit) prefers(r int) bool {
	for _, p := range u.prefs {
		if p.Rack == r {
			return true
		}
	}
	return false
}

// locate fills data, node and total from where the stage's input sits now.
func (u *unit) locate(v sched.View) {
	u.data = make([]float64, v.Racks())
	u.node = map[int]float64{}
	u.total = 0
	if u.role == input {
		u.locateInput(v)
	} else {
		u.locateParents(v)
	}
}

func (u *unit) add(v sched.View, m int, b float64) {
	u.data[v.RackOf(m)] += b
	u.node[m] += b
}

// locateInput is eq. 2's In_x: the stage's DFS splits (a split counts in
// every rack and on every machine holding one of its replicas) and, for a
// job of a workflow, its parent jobs' outputs where they were written.
func (u *unit) locateInput(v sched.View) {
	dep, shares := 0.0, 0.0
	if u.st.ReadsJobParents() {
		for _, id := range u.j.sj.ParentJobs() {
			out, ok := v.Output(id)
			if !ok {
				continue
			}
			for _, mb := range out.ByMachine {
				u.add(v, mb.Machine, mb.Bytes)
			}
			dep += out.Total
		}
		for _, t := range u.st.Tasks() {
			shares += t.Share()
		}
		u.total += dep
	}
	if !u.st.HasFileInput() {
		return
	}
	var seen []bool
	for _, t := range u.st.Tasks() {
		if t.NumReplicas() == 0 {
			continue
		}
		// The estimate covers everything the task reads; its file split
		// is that less its share of the parents' outputs.
		b := v.Estimate(t).Input
		if dep > 0 && shares > 0 {
			b = max(0, b-dep*t.Share()/shares)
		}
		u.total += b
		if seen == nil {
			seen = make([]bool, v.Racks())
		}
		clear(seen)
		for _, m := range t.Replicas() {
			u.node[m] += b
			if r := v.RackOf(m); !seen[r] {
				seen[r] = true
				u.data[r] += b
			}
		}
	}
}

// locateParents is eq. 4's Inter_x: the outputs of the stage's parent
// stages where their tasks ran (§3.2.3: "according to the task placement
// in the previous stage"). A broadcast edge sends every parent byte to
// each of the stage's tasks.
func (u *unit) locateParents(v sched.View) {
	for _, e := range u.st.Parents() {
		w := 1.0
		if e.Pattern == workload.Broadcast {
			w = float64(u.st.NumTasks())
		}
		for _, pt := range e.Parent.Tasks() {
			if m := pt.Machine(); m >= 0 {
				b := w * v.Estimate(pt).Output
				u.add(v, m, b)
				u.total += b
			}
		}
	}
	if u.role == output {
		u.out = 0
		for _, t := range u.st.Tasks() {
			u.out += v.Estimate(t).Output
		}
	}
}

// parentsDone reports whether every parent stage of st has finished, so
// that its intermediate data is where it will stay (Alg. 2 line 7: "map
// tasks finished").
func parentsDone(st sched.Stage) bool { return st.ParentsDone() }

// roleOf classifies a stage of its job.
func roleOf(st sched.Stage) role {
	switch {
	case st.NumParents() == 0:
		return input
	case st.NumChildren() > 0:
		return middle
	}
	return output
}
