package css_test

import (
	"testing"

	"github.com/netsched/netsched/sched/css"
)

// The motivating example of §II-B (Fig. 2): two jobs of two stages, two
// hosts, both jobs at t=0. T_ij^(m) is task m of stage j of job i. The
// times satisfy the paper's inequalities
//
//	T21a < T11a = T11b < T21b:  2 < 3 = 3 < 4
//	T12b < T22a < T12a < T22b:  1 < 2 < 3 < 4
//
// and, as the paper's text needs, job 1's second stage (CCT 3 on two free
// hosts) completes sooner than job 2's first (CCT 4).
const motivating = `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1GB/s}
workload:
  jobs:
    - id: J1
      stages:
        - {id: s1, tasks: [{compute: 3s}, {compute: 3s}]}   # T11a, T11b
        - {id: s2, after: [{stage: s1}], tasks: [{compute: 3s}, {compute: 1s}]}   # T12a, T12b
    - id: J2
      stages:
        - {id: s1, tasks: [{compute: 2s}, {compute: 4s}]}   # T21a, T21b
        - {id: s2, after: [{stage: s1}], tasks: [{compute: 2s}, {compute: 4s}]}   # T22a, T22b
`

// Shortest task first, by hand (an idle host takes the smallest waiting
// task; a stage arrives when the one before it completes):
//
//	t=0  H1: T21a (2) 0-2,  H0: T11a (3) 0-3
//	t=2  H1: T11b (3) 2-5
//	t=3  H0: T21b (4) 3-7
//	t=5  J1.s1 done, J1.s2 arrives.  H1: T12b (1) 5-6
//	t=6  H1: T12a (3) 6-9                       J1 done at 9
//	t=7  J2.s1 done, J2.s2 arrives.  H0: T22a (2) 7-9
//	t=9  H1: T22b (4) 9-13                      J2 done at 13
//
// Stages interleave, and each job waits for the other's tasks (the
// paper's t5 and t7).
//
// Shortest cotask first (CSS), by hand:
//
//	t=0  minimum CCTs on two idle hosts: J1.s1 3 (a task each), J2.s1 4:
//	     J1.s1 first, T11a on H0 and T11b on H1, 0-3; J2.s1 queues behind.
//	t=3  J1.s2 arrives; STSP re-plans the queued J2.s1 with it on W = (0,0):
//	     J1.s2's minimum CCT 3 < J2.s1's 4, so J1.s2 goes first: T12a (3) on
//	     H0 3-6, T12b (1) on H1 3-4; then J2.s1 on W = (3,1): T21b (4) on H1
//	     4-8 and T21a (2) on H0 6-8, CCT 8 (the other way round ends at 9).
//	     The larger task of the cotask starts first, as in the paper.
//	                                            J1 done at 6
//	t=8  J2.s2: T22a and T22b, one per host, 8-10 and 8-12
//	                                            J2 done at 12
//
// Both jobs finish earlier under CSS (the paper's t3 < t5 and t6 < t7).
func TestMotivatingExample(t *testing.T) {
	stf := jcts(run(t, motivating, named(t, "stf", nil)))
	cs := jcts(run(t, motivating, css.New(css.DefaultConfig())))
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"STF J1", stf["J1"], 9}, {"STF J2", stf["J2"], 13},
		{"CSS J1", cs["J1"], 6}, {"CSS J2", cs["J2"], 12},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s finishes at %g, want %g", c.name, c.got, c.want)
		}
	}
	if !(cs["J1"] < stf["J1"] && cs["J2"] < stf["J2"]) {
		t.Errorf("shortest cotask first %v does not finish both jobs before shortest task first %v", cs, stf)
	}
}
