// Package css is the Cotask Scheduling Scheme of Zhao, Luo, Wang and Wang
// ("Cotask Scheduling in Cloud Computing", shared/papers/css-cotask.txt)
// for netsched, and stf, the shortest-task-first scheme of the paper's
// motivating example (§II-B), registered as "css" and "stf".
//
// A cotask is the set of tasks of one stage of one job. CSS minimises the
// average cotask completion time (CCT) with three parts:
//
//   - Per-host queues (§III-A, lanes.go). Every task of a ready cotask is
//     placed in a host's queue; when the host frees up it starts the head
//     of its queue. Queued tasks may be moved and re-ordered when cotasks
//     arrive; a running task is never preempted.
//   - STSP (Algorithm 1 lines 1-19, stsp.go and replan.go). When a cotask
//     becomes ready, every queued task is placed again: first the cotasks
//     whose tasks have waited longer than δ in total (starvation), then by
//     MCTF, the cotask with the smallest minimum CCT given each host's
//     remaining work W next. The minimum CCT is the CCT-LP lower bound of
//     §IV-A; the placement is Algorithm 2's rounding and Algorithm 3's
//     aggregation, with the tasks on a host longest first (§IV-C); all of
//     it in package cotask.
//   - DTPA (Algorithm 1 lines 20-30, dtpa.go). When a host's running task
//     waits for data (a reducer started by slow-start before its maps are
//     done), the last task of that cotask queued on the host is taken out
//     and placed again as a new cotask if the wait makes it start after its
//     cotask was planned to end.
//
// # How the paper maps onto netsched
//
// Task times. t_jk, the time of task j on host k, is TaskTime: the
// estimated compute time on k's speed (View.EstimateOn, through the
// scenario's knowledge model) plus, with transfer (default), its input
// over k's NIC unless a replica of its DFS split is on k. W of a host is
// the estimated remaining time of its running task (with the wait for data
// of one whose parents are unfinished) plus its queue.
//
// Slots. The paper's host runs one task at a time. A machine with s slots
// is s lanes, each a sequential queue of its own (see lane); a freed slot
// starts the head of its own lane. One-slot machines are exactly the
// paper's hosts, which is how the reproductions run.
//
// Decision points. A stage becoming ready (an Observer event) marks STSP
// due; it runs at the next decision (Global.Schedule, called at the same
// instant when slots are free, else when one frees), before any queue is
// popped, so the queues are as STSP at the arrival would leave them. DTPA
// runs at every decision for the lanes whose task waits for data.
//
// waitTime. Algorithm 1's waitTime() is "the total waiting time of all the
// tasks" of a cotask: here the sum, over its queued tasks, of the time
// since they became ready, in task-seconds. A 373-task cotask accrues it
// 373 times as fast as a one-task cotask, so δ is in those units; the
// default (10^7 task-seconds) lies above every wait in the paper's studies
// (the guard never changes their order) and only stops postponement
// without end.
//
// # Where we go beyond the paper (each with a reason)
//
//   - Ancestors first: a cotask is placed after the queued cotasks of its
//     stage's ancestors. STSP assumes no task is blocked fetching data; a
//     reducer queued ahead of its own maps would break that by
//     construction.
//   - Awaited cotasks first: the queued cotasks a running task waits for
//     (and their ancestors) are placed before all others, and not on a
//     lane whose running task itself waits for data. Without this rule a
//     re-plan can queue reducer A's maps behind reducer B and B's maps
//     behind A, and every slot waits forever (TestAwaitedRuleAvoidsCircularWait
//     has such a workload).
//   - Improve (parameter improve, default on): Algorithm 2 guarantees only
//     Theorem 1's 2t* − min w, and its "arbitrary" choices can put two of a
//     reduce cotask's long tasks on one host where the LP spread them;
//     cotask.Improve moves tasks off the last host while that ends the
//     cotask sooner, before Algorithm 3. improve: false is the paper's
//     algorithm exactly.
//   - The MCTF choice re-evaluates lazily: minCCT only grows as W grows,
//     so stale values are lower bounds and only the heap's top is
//     recomputed; the choice is identical to the paper's loop
//     (TestSTSPLazyIsEager).
//   - DTPA's t_wait: the paper accumulates waits per host (t_wait^(0)); we
//     compute the last task's start from the host as it is now, which is
//     the planned start plus every delay since the plan. A task is moved at
//     most once.
//
// Ablations are parameters: dtpa: false (STSP only), order: arrival
// (cotasks in the order they become ready, no MCTF), placement: random
// (each task on a random lane, fixed per task; with order: arrival, a
// queue-based cluster without CSS), improve: false, transfer: false.
package css
