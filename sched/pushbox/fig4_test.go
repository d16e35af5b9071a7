package pushbox_test

import (
	"testing"

	"github.com/netsched/netsched/sched/pushbox"
)

// The situations of Fig. 4 (§5.2). Machine 0 has 4 slots and receives at
// 1 MB/s; machine 1 holds the map outputs (its uplink is also 1 MB/s);
// m = 3 as in the paper.

// Fig. 4a/4b, not-hinder test, FIFO queue in the order A, B, C. A's four
// reducers fetch 1 MB each and compute 5 s; B's mapper M1 computes 10 s and
// C's mapper M2 1 s (neither reads input). B and C arrive at 0.5, when A's
// reducers are waiting, so A is the legitimate job and B, C beneficiaries.
const fig4Hinder = `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 4, nic: 1MB/s}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, tasks: [{output: 4MB, pin: 1}]}
        - id: reduce
          after: map
          tasks: [{compute: 5s, pin: 0}, {compute: 5s, pin: 0}, {compute: 5s, pin: 0}, {compute: 5s, pin: 0}]
    - {id: B, arrival: 0.5s, stages: [{id: map, tasks: [{compute: 10s, pin: 0}]}]}
    - {id: C, arrival: 0.5s, stages: [{id: map, tasks: [{compute: 1s, pin: 0}]}]}
scheduler: fifo
`

// At 0 R1-R3 take three slots; R4 cannot (3 input-phase tasks, no wildcard
// under FIFO), so the fourth slot stays free. Priorities follow placement:
// R1 input [0,1], R2 [1,2], R3 [2,3], each then computing 5 s.
//
// With the test (Fig. 4b): at 0.5 A yields the slot again; M1's 10 s is not
// below the machine's remaining transfer time (2.5 MB at 1 MB/s = 2.5 s),
// so M1 is refused; M2's 1 s is, and M2 runs [0.5,1.5]. When it ends R4
// takes its slot (2 input-phase tasks left): input [3,4], compute [4,9]. M1
// waits for R1's slot at 6: [6,16]. JCT A = 9, B = 15.5, C = 1.
//
// Without it (H ablation, Fig. 4a): M1 takes the yielded slot at 0.5 and the
// machine is full. The network idles from 3 while R1-R3 compute; R4 only
// gets R1's slot at 6: input [6,7], compute [7,12]. M2 gets R2's slot at 7:
// [7,8]. JCT A = 12, B = 10, C = 7.5: the legitimate job is hurt by the
// beneficiary, and the mean JCT rises from 8.5 to 9.83.
func TestFig4NotHinder(t *testing.T) {
	fifo := func(c *pushbox.Config) { c.Policy = pushbox.FIFO }
	expect(t, "pushbox", runPushBox(t, fig4Hinder, cfg(fifo)), map[string]float64{"A": 9, "B": 15.5, "C": 1})
	expect(t, "pushbox-H", runPushBox(t, fig4Hinder, cfg(func(c *pushbox.Config) { fifo(c); c.H = true })),
		map[string]float64{"A": 12, "B": 10, "C": 7.5})
}

// Fig. 4c/4d, wildcard. A large job A has three reducers fetching 10 MB
// each (1 s compute) on machine 0; a small job S arrives at 1 with one
// reducer fetching 1 MB (1 s compute). Machine 0 keeps a fourth slot free.
const fig4Wildcard = `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 4, nic: 1MB/s}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, tasks: [{output: 30MB, pin: 1}]}
        - id: reduce
          after: map
          tasks: [{compute: 1s, pin: 0}, {compute: 1s, pin: 0}, {compute: 1s, pin: 0}]
    - id: S
      arrival: 1s
      stages:
        - {id: map, tasks: [{output: 1MB, pin: 1}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 0}]}
scheduler: fifo
`

// Fair queue with the wildcard: at 1 the machine already has m = 3
// input-phase tasks, but S's coflow (1 MB) is smaller than the smallest
// one there (30 MB), so its reducer is admitted and, smallest coflow first,
// outranks A's: input [1,2], compute [2,3]. R1 is paused for that second:
// inputs end at 11, 21, 31 and A ends at 32. JCT S = 2, A = 32.
//
// Fair queue without it (W ablation): S's reducer waits for R1's input to
// end at 10, then outranks R2: input [10,11], compute [11,12]. JCT S = 11,
// A = 32 (R2 and R3 lose the same second).
//
// FIFO queue (Fig. 4d, no wildcard by design): S waits until 10 and, not
// being the head job, gets the reserved lowest class: its input only
// starts when A's last input ends at 30: [30,31], compute [31,32]. A is not
// delayed at all: JCT A = 31, S = 31.
func TestFig4Wildcard(t *testing.T) {
	expect(t, "pushbox fair", runPushBox(t, fig4Wildcard, cfg(nil)), map[string]float64{"A": 32, "S": 2})
	expect(t, "pushbox-W fair", runPushBox(t, fig4Wildcard, cfg(func(c *pushbox.Config) { c.W = true })), map[string]float64{"A": 32, "S": 11})
	expect(t, "pushbox fifo", runPushBox(t, fig4Wildcard, cfg(func(c *pushbox.Config) { c.Policy = pushbox.FIFO })), map[string]float64{"A": 31, "S": 31})
}
