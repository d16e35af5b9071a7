package pushbox_test

import (
	"testing"

	"github.com/netsched/netsched/sched/pushbox"
)

// The toy cases of §2.3 (Fig. 2). One time unit is 1 s and one data unit
// 1 MB: machine 0 (slots S1, S2) receives at 1 MB/s; machine 1 holds job
// A's map output, which its map (no input, no compute) writes at time 0, so
// A's reducers fetch from machine 1 from time 0 on. Machine 1's uplink is
// also 1 MB/s, so the shared bottleneck is the toy's "machine receives at
// most 1 unit per time unit". Job X, one 2 s task pinned to machine 0,
// holds S2 until time 2 ("S2 is free later at time 2").

// Cases 1 and 2: R1 fetches 1 MB and computes 1 s, R2 three times that.
const toyCase12 = `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1MB/s}
workload:
  jobs:
    - {id: X, stages: [{id: s, tasks: [{compute: 2s, pin: 0}]}]}
    - id: A
      stages:
        - {id: map, tasks: [{output: 4MB, pin: 1}]}
        - id: reduce
          after: map
          tasks: [{share: 1, compute: 1s, pin: 0}, {share: 3, compute: 3s, pin: 0}]
scheduler: fifo
`

// Case 1 (Fig. 2a): a scheduler blind to task sizes starts R1 on S1 at 0
// (queue's fifo takes tasks in index order): R1 input [0,1], compute [1,2];
// R2 starts at 2 when S1 and S2 are free: input [2,5], compute [5,8].
// JCT of A = 8.
//
// Fig. 2b, placement only (PushBox with the GP ablation: both reducers in
// the same size bin, so the same class and fair sharing): R2 (largest
// input) takes S1 at 0 and fetches alone [0,2] (2 MB); R1 takes S2 at 2,
// below m = 3; they share 0.5 MB/s each, both have 1 MB left and end their
// input at 4; R2 computes [4,7]. JCT = 7.
//
// Case 2 (Fig. 2c), PushBox: R2 placed first as above, and R1, placed later
// by the same job, gets a lower priority: R2 fetches alone [0,3], computes
// [3,6]; R1 gets no bandwidth until 3, fetches [3,4], computes [4,5].
// JCT = 6.
func TestToyCases1And2(t *testing.T) {
	expect(t, "fifo (Fig. 2a)", runNamed(t, toyCase12, "fifo", nil), map[string]float64{"A": 8, "X": 2})
	expect(t, "pushbox GP (Fig. 2b)", runPushBox(t, toyCase12, cfg(func(c *pushbox.Config) { c.GP = true })), map[string]float64{"A": 7, "X": 2})
	expect(t, "pushbox (Fig. 2c)", runPushBox(t, toyCase12, cfg(nil)), map[string]float64{"A": 6, "X": 2})
}

// Case 3 (Fig. 2d), FIFO queue. R2 is listed first so that the baseline
// also starts it at 0, as in the paper. Job B (one map M1 without input)
// arrives at 2.1. The toy assumes one task saturates the NIC, so PushBox
// runs with m = 1 (Peña's ideal abstraction). M1 computes 0.5 s, not the
// paper's 1: notHinderTask admits a beneficiary only if it computes for
// less than the machine's remaining transfer time, 0.9 s at 2.1 (with 1 s
// it would wait, since it would delay R1 by δ).
//
// Baseline hadoop-fifo (FIFO slots, network priority by job): R2 input
// from 0; X ends at 2 and R1 takes S2 at once; R1 and R2 are one job, one
// class, so they share: 1 MB each left at 2, both end input at 4; R2
// computes [4,7], R1 [4,5]. M1 waits for S2 until 5: [5,5.5].
// JCT A = 7, B = 5.5 - 2.1 = 3.4.
//
// PushBox: R2 (largest) input [0,3]. At 2 S2 frees but R1 cannot be placed
// (1 input-phase task = m, no wildcard under FIFO): S2 stays free. At 2.1
// M1 (local, beneficiary: slot yielded by A) passes notHinderTask (0.5 s <
// 0.9 MB / 1 MB/s) and runs [2.1,2.6]. At 3 R2's input ends and R1 takes a
// slot: input [3,4], compute [4,5]; R2 computes [3,6].
// JCT A = 6, B = 0.5.
const toyCase3 = `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1MB/s}
workload:
  jobs:
    - {id: X, stages: [{id: s, tasks: [{compute: 2s, pin: 0}]}]}
    - id: A
      stages:
        - {id: map, tasks: [{output: 4MB, pin: 1}]}
        - id: reduce
          after: map
          tasks: [{share: 3, compute: 3s, pin: 0}, {share: 1, compute: 1s, pin: 0}]
    - {id: B, arrival: 2.1s, stages: [{id: map, tasks: [{compute: 0.5s, pin: 0}]}]}
scheduler: fifo
`

func TestToyCase3(t *testing.T) {
	expect(t, "hadoop-fifo", runNamed(t, toyCase3, "fifo", map[string]any{"network": "fifo"}), map[string]float64{"A": 7, "B": 3.4})
	expect(t, "pushbox", runPushBox(t, toyCase3, cfg(func(c *pushbox.Config) { c.Policy, c.M = pushbox.FIFO, 1 })), map[string]float64{"A": 6, "B": 0.5})
}

// Case 4 (Figs. 2e, 2f), FIFO queue: R1 and R2 each fetch 2 MB and compute
// 2 s, both slots free at 0; B's M1 (1 s) arrives at 2.1.
//
// Baseline hadoop-fifo (Fig. 2e, the coflow finishes together): one job,
// one class, fair sharing: both inputs [0,4], computes [4,6]; M1 waits for
// a slot until 6: [6,7]. JCT A = 6, B = 7 - 2.1 = 4.9.
//
// PushBox (Fig. 2f): R1 (first placed) outranks R2: R1 input [0,2], compute
// [2,4]; R2 input [2,4], compute [4,6]; S1 frees at 4 and M1 runs [4,5].
// JCT A = 6, B = 5 - 2.1 = 2.9: two units earlier, A unchanged.
const toyCase4 = `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1MB/s}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, tasks: [{output: 4MB, pin: 1}]}
        - id: reduce
          after: map
          tasks: [{share: 1, compute: 2s, pin: 0}, {share: 1, compute: 2s, pin: 0}]
    - {id: B, arrival: 2.1s, stages: [{id: map, tasks: [{compute: 1s, pin: 0}]}]}
scheduler: fifo
`

func TestToyCase4(t *testing.T) {
	expect(t, "hadoop-fifo", runNamed(t, toyCase4, "fifo", map[string]any{"network": "fifo"}), map[string]float64{"A": 6, "B": 4.9})
	for _, m := range []int{1, 3} {
		expect(t, "pushbox", runPushBox(t, toyCase4, cfg(func(c *pushbox.Config) { c.Policy, c.M = pushbox.FIFO, m })), map[string]float64{"A": 6, "B": 2.9})
	}
}
