// Package pushbox is PushBox (Tian et al., "PushBox: Making Use of Every
// Bit of Time to Accelerate Completion of Data-Parallel Jobs", IEEE TPDS
// 2022): joint slot and network scheduling over the Peña network
// abstraction, registered as `pushbox`, with the baselines of its
// simulation study, `hadoop` and `hadoop-fifo` (baselines.go).
//
// # Peña (§4)
//
// Controlled concurrency: at most M (default 3) input-phase tasks per
// machine, a lower bound only the Fair wildcard exceeds. Tasks that count
// as local are not counted: tasks without input, DFS readers placed on a
// replica, and, when rack-local sources count as local (rack_local: auto
// turns it on for oversubscribed networks), DFS readers with a replica in
// the rack, whose intra-rack flows take the reserved class ClassLocal.
//
// Prioritized concurrency: a machine's other input-phase tasks hold the
// network classes 0..k-1 (0 = header task, strict priority across the
// whole network, max-min within a class), in the documented order:
// smallest job coflow first across jobs, ties by arrival, placement order
// within a job (§5.1 "Flow Priority"). In a FIFO queue only the head job
// (earliest unfinished) is ranked; the other jobs' tasks share
// ClassReserved. Ranks are recomputed when a task starts or ends its input
// phase on the machine (and everywhere when the FIFO head changes), and
// changed classes are applied to the flows in flight (Plan.SetClass).
//
// Receive rate: Peña's "received bytes over elapsed time, smoothed by an
// EMA". PushBox keeps its own EMA (time constant rate_window, default 5 s)
// of the exact rate of the flows into each machine (View.ReceiveRateNow),
// sampled at every scheduling call and folded in only over intervals in
// which the machine was receiving. The network monitor's smoothed
// ReceiveRate was not used: it averages idle time in and decays towards 0
// on a machine that waited, which would inflate the estimate of the next
// transfer exactly when a machine starts receiving again. The rate starts
// at the machine's NIC speed. A machine's dataTransferTime is the remaining
// input bytes of its counted tasks (View.RemainingInput, through the
// knowledge model) over this rate.
//
// # Algorithms 1-3 (§5)
//
//   - Job order (Algorithm 2 line 1): jobs with waiting tasks; a Fair queue
//     puts the job holding the fewest slots first, a FIFO queue orders by
//     arrival; with small_fifo, jobs whose coflow is below that size form a
//     FIFO queue beside a Fair queue and the queue holding fewer slots goes
//     first.
//   - selectTask: the job's stages by estimated longest path to the exit
//     (critical stage first). A stage reading only DFS blocks goes through
//     delay scheduling (skip count ceil(locality_delay x machines), one
//     skip per machine and scheduling pass); any other stage gives its
//     waiting task with the largest estimated input.
//   - canBePlaced: below M, or the Fair wildcard (the job's coflow smaller
//     than the smallest coflow on the machine).
//   - notHinderTask: a beneficiary local task computes for less than the
//     machine's dataTransferTime.
//   - Slot-change mode (Algorithm 2): per machine whose slot freed or whose
//     task left its input phase, until it keeps a slot free. Heartbeats
//     (for delay scheduling) use the same code through Offer.
//   - Task-arrival mode (Algorithm 3): machines with free slots sorted by
//     ascending dataTransferTime; the first to accept a task gets it, then
//     the machines are sorted again. The candidate of a machine is found
//     through the job order as in Algorithm 2 (whose slotYield = 0 is
//     Algorithm 3's "chosenTask.job = Jobs[0]").
//
// Placements go into the call's Plan, which reserves each at once: free
// slots, waiting tasks and per-job waiting counts are read from the View,
// which already reflects the pass's earlier picks. Peña's measures of a
// machine (counted tasks, their bytes and smallest coflow: Algorithm 3's
// update) are cached per pass: its input-phase tasks in placement order,
// then the tasks the plan placed there (Machine.Planned) in plan order.
//
// # Ablations (§7.2)
//
// ablate: GP replaces the per-machine ranks by the coflow's size bin
// (metrics.SizeBins, seven bins) as a global class; RS draws the task at
// random among the critical stage's waiting tasks instead of taking the
// largest (lines 5-7 of Algorithm 1; the stage order and the locality
// branch stay); H accepts every beneficiary; W removes the wildcard.
// The estimation error of Fig. 8d is the scenario's knowledge model
// (multiplicative, E = f^(2U-1)).
//
// # Counters
//
// Stats (stats.go) counts how often the not-hinder test and the wildcard
// decide and for which jobs, and the estimated coflow size of every job;
// cmd/pbstats prints them for a sweep's base scenario
// (docs/reproductions/pushbox.md). Counting changes no decision.
//
// # Checking
//
// With check: true, or in a run with engine check mode, every placement and
// input-phase end is followed by an assertion of the machine's priority
// order against the engine's own list of its input-phase tasks; a
// violation stops the run (sched.Failer).
package pushbox
