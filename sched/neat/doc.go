// Package neat is `neat`: NEAT, network-scheduling-aware task placement
// (Munir, He, Raghavendra, Le, Liu, CoNEXT 2016; NEAT+ in IEEE/ACM ToN
// 28(6), 2020).
//
// Only the abstracts were available, so this is a documented
// reconstruction of shared/design/baselines.md §6: the idea (predict a
// task's completion from the network state and the network policy in
// force, and place it where the average completion of active tasks grows
// least) is the paper's; the formulas below are single-link queueing
// results and the placement rule is ours (§6's [D]), not the paper's
// verified equations.
//
// # Placement
//
// neat is a sched.Global scheduler. At every opportunity it serves the
// waiting tasks in a job order that is not NEAT's contribution and so is a
// parameter: order fair (default) gives each free slot to the job with the
// fewest running tasks, as Hadoop's Fair scheduler without weights or
// locality waits, which makes neat comparable with fair and delay on the
// same order; order fifo serves jobs by arrival. Inside a job, stages and
// tasks go in index order. Each task goes to the machine with a free slot
// that minimises
//
//	Δ = predicted completion of the task + Σ extra delay it imposes on the flows in flight
//	    + its compute time on the machine (View.EstimateOn; NEAT+, parameter compute)
//
// A task's input flows are predicted from where its bytes are: its file
// split from the replica the engine would read on that machine (node-local,
// else rack-local, else the first), its shuffle from its finished parent
// tasks' machines (their estimated output times its share), a workflow
// stage's input from its parent jobs' outputs. Node-local bytes need no
// flow and cost nothing. Each flow crosses its source NIC uplink, the
// source rack's uplink and the destination rack's downlink when the racks
// differ, and the destination NIC downlink; the task's flows that share a
// link are predicted there as one flow of their total size, each flow is
// judged on its bottleneck (the link where it is predicted to end last),
// so the task's completion is the max over the links it crosses; each flow
// in flight on those links is delayed by the most any one of them delays
// it (its own bottleneck decides), and the delays are summed over the
// flows, each counted once. Ties (to a relative 1e-9) go
// to the more data-local machine (§6), then to the lower machine id. A
// task placed in a pass adds its flows to the links at once, so the next
// task of the pass sees them. Pinned tasks go to their pin.
//
// # Predictor
//
// For a new flow of s bytes on a link of capacity C whose flows have
// remaining bytes r_i and attained service a_i (see Predict):
//
//	FCFS  completion (Σ r_i + s)/C                          delay 0
//	Fair  completion (s + Σ min(r_i, s))/C                  delay Σ min(r_i, s)/C
//	LAS   completion (s + Σ max(0, min(a_i+r_i, s) − a_i))/C
//	      delay Σ min(s, a_i+r_i)/C
//	SRPT  completion (s + Σ_{r_i ≤ s} r_i)/C                delay s/C per flow with r_i > s
//
// The model follows the network policy in force, which the scheduler reads
// from View.FlowsInFlight (the scenario's `scheduler.network`): none or
// fair → Fair (max-min within one class is processor sharing on the
// bottleneck); fifo (strict priority by job arrival) → FCFS; scf and varys
// (smallest coflow or effective bottleneck first; varys with order fifo →
// FCFS) → SRPT; aalo (least attained service) → LAS. The parameter
// predictor (auto by default) overrides it. LAS counts each flow's own
// attained service, where Aalo counts its coflow's.
//
// # Where the link state comes from
//
// The remaining bytes and attained service of every flow on every link
// come from View.FlowsInFlight, an accessor added for neat: the engine
// already holds each flow's size, remaining bytes and route, so reading them
// is exact and costs one walk over the flows in flight per pass that
// compares machines (a pass that places only pinned tasks or has a single
// free machine predicts nothing and skips it), while
// tracking them from lifecycle events (Observer, Fetches, RemainingInput)
// would only give per-task totals, not per-link remainders of flows that
// share links with other tasks, and would have to re-derive max-min rates
// to know progress. The accessor also names the network policy and gives
// the links' capacities (rack links included), which schedulers could not
// read before.
//
// Not modelled: future arrivals, the parallel-fetch limit (a reducer's
// sources are predicted as if all fetched at once), the shuffle of parent
// tasks still running (slow-start reducers), several flows of one task
// sharing a link counting as several max-min shares, and optical circuits
// on a hybrid network. Decisions are deterministic: machines, jobs, stages,
// tasks and sources are visited in id order, and no map is iterated.
//
// # Cost
//
// The job order is kept between passes (order.go): the jobs with waiting
// tasks sit in a heap re-keyed on lifecycle events (Observe), so a pass
// costs O(k log n) for the k jobs it serves among n active ones, not a
// walk of every active job.
package neat
