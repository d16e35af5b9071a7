package rackplan

import (
	"hash/fnv"
	"math/rand/v2"

	"github.com/netsched/netsched/sched"
)

// PlaceReplicas places the replicas of one input split of a planned job
// whose maps run on the racks of in (JobPacker §4.4, Corral's joint data
// and compute placement): the first replica on a machine of the split's
// rack, the second on a machine of another rack and the third on another
// machine of the second's rack (the HDFS default for the rest, so every
// split still survives a rack failure); any further replica on a machine
// not yet used.
//
// The paper draws the first replica's rack at random from the job's map
// racks. Here consecutive splits go to the racks in the numbers the plan
// gives each rack's maps, so that every planned map has a block in its
// rack (a random draw leaves some racks short of local blocks, and their
// maps then read across the core); and the other replicas stay off the
// job's other map racks, where they would make the split rack-local to a
// rack that then takes it from the rack it was meant for. Machines are drawn from a stream keyed
// by the seed, the job and the split, so nothing depends on the order of
// the calls.
func PlaceReplicas(v sched.View, sp sched.InputSplit, in Input) []int {
	if len(in.Racks) == 0 || sp.Replicas < 1 {
		return nil
	}
	n := sp.Job.Stages[sp.Stage].TotalTasks()
	r := rand.New(rand.NewPCG(v.Seed()^hashID(sp.Job.ID), uint64(sp.Stage)<<32|uint64(uint32(sp.Task))))
	first := in.rackOf(sp.Task, n)
	reps := make([]int, 0, sp.Replicas)
	add := func(ms []int) bool {
		var free []int
		for _, m := range ms {
			if !contains(reps, m) {
				free = append(free, m)
			}
		}
		if len(free) == 0 {
			return false
		}
		reps = append(reps, free[r.IntN(len(free))])
		return true
	}
	if !add(v.RackMachines(first)) {
		return nil
	}
	second := -1
	if sp.Replicas >= 2 {
		var others, outside []int
		for k := range v.Racks() {
			if k != first {
				others = append(others, k)
				if !contains(in.Racks, k) {
					outside = append(outside, k)
				}
			}
		}
		if len(outside) > 0 {
			others = outside
		}
		if len(others) > 0 {
			second = others[r.IntN(len(others))]
			if !add(v.RackMachines(second)) {
				second = -1
			}
		}
	}
	if len(reps) < sp.Replicas && second >= 0 {
		add(v.RackMachines(second))
	}
	all := make([]int, v.NumMachines())
	for i := range all {
		all[i] = i
	}
	for len(reps) < sp.Replicas && add(all) {
	}
	return reps
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// hashID is a job id's FNV-1a hash.
func hashID(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}
