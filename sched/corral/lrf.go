package corral

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// job is a recurring job as Corral's planner sees it (from its Forecast).
type job struct {
	id         string
	seq        int
	arrival    float64
	maps, reds int
	tMap, tRed float64 // mean seconds per task
	shuffle    float64 // bytes the reduces read from the maps
}

func jobOf(f sched.Forecast, seq int) job {
	j := job{id: f.ID, seq: seq, arrival: f.Arrival}
	read := map[string]bool{}
	for _, st := range f.Stages {
		for _, p := range st.Parents {
			read[p] = true
		}
	}
	var wm, wr float64
	for _, st := range f.Stages {
		if len(st.Parents) == 0 {
			j.maps += st.Tasks
			wm += st.Compute
			if read[st.ID] {
				j.shuffle += st.Output
			}
			continue
		}
		j.reds += st.Tasks
		wr += st.Compute
	}
	if j.maps > 0 {
		j.tMap = wm / float64(j.maps)
	}
	if j.reds > 0 {
		j.tRed = wr / float64(j.reds)
	}
	return j
}

// cluster is what the LRF needs of the cluster: containers and machines
// per rack, a machine's NIC and a rack's uplink (bytes/s).
type cluster struct {
	racks, slots, machines int
	nic, up                float64
}

// lrf is the latency response function L_j(r) on r racks
// (baselines.md §7 [D]): map waves, the shuffle at its busier bottleneck
// (a rack's uplink carries S(r-1)/r^2, a machine's NIC S/(r h)), reduce
// waves. Input is local: Corral places it on the job's racks.
func (c cluster) lrf(j job, r int) float64 {
	rf := float64(r)
	waves := func(n int) float64 { return math.Ceil(float64(n) / (rf * float64(c.slots))) }
	l := waves(j.maps) * j.tMap
	if j.shuffle > 0 {
		l += max(j.shuffle*(rf-1)/(rf*rf*c.up), j.shuffle/(rf*float64(c.machines)*c.nic))
	}
	if j.reds > 0 {
		l += waves(j.reds) * j.tRed
	}
	return l
}
