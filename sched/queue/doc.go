// Package queue holds the classic Hadoop schedulers, specified in
// shared/design/baselines.md §0-3: fifo, fair (the YARN Fair Scheduler),
// capacity (the YARN CapacityScheduler's core ordering) and delay (delay
// scheduling on top of fair). Every task is one slot (§0's slot model).
//
// They are built from the same small pieces:
//   - request.go: the requests of a job, reduce-like stages (no file input,
//     MR priority 10) before map-like ones (priority 20) with the MR
//     ramp-up limit on slow-started reducers (§4), and the locality lookup
//     node-local -> rack-local -> any up to an allowed level;
//   - order.go: the fair (§1.5) and fifo comparators and a lazy best-first
//     iteration;
//   - tree.go, config.go: the queue tree, its `queues` parameter, and the
//     routing of jobs to leaf queues;
//   - walk.go: one offer walked down the tree, each scheduler supplying how
//     queues are ordered and how an app places a task;
//   - network.go: the `network` parameter (flow priority by job arrival).
//
// # Queues (fair, delay)
//
// The `queues` parameter is a list of queues; `parent` (default root) makes
// a tree, and only leaves hold jobs:
//
//	scheduler:
//	  name: fair
//	  params:
//	    queues:
//	      - {name: prod, weight: 2, min_share: 4, policy: fifo}
//	      - {name: research, weight: 1, max_share: 20}
//	      - {name: alice, parent: research}
//	      - {name: bob, parent: research, weight: 2}
//	    auto_create_queues: true
//	    user_weights: {alice: 2, bob: 1}
//
// Keys: name (required, unique, no dots, not "root"), parent, weight
// (default 1), min_share and max_share in slots (default 0 and unbounded),
// policy fair (default) | fifo (leaves only) | drf (the same as fair when
// every task is one slot, §0). A job names its leaf queue in the workload
// (`queue:`, default "default") by name or by path (root.research.alice).
// A queue that is not configured is created under root with weight 1 when
// auto_create_queues is true (the default, like YARN's default placement);
// otherwise the job is an error.
//
// With user_weights, each leaf shares its slots among its users first (like
// YARN's nested user queues): every user gets a sub-queue with the weight
// given (1 if not listed) ordered by the fair comparator, and the user's
// jobs are ordered inside it by the leaf's policy.
//
// # Queues (capacity)
//
//	queues:
//	  - {name: prod, capacity: 0.7, maximum_capacity: 1, policy: fifo}
//	  - {name: dev, capacity: 0.3, user_limit_factor: 1}
//
// capacity is the fraction of the parent's guaranteed slots (siblings sum
// to 1), maximum_capacity the fraction of the parent it may grow to (default
// 1), policy fifo (default) | fair orders the jobs of a leaf, and
// user_limit_factor caps one user's running tasks in a leaf at that multiple
// of the leaf's guarantee (simplified CS user limit: no
// minimum-user-limit-percent; off unless given, where YARN's default is 1).
// Without `queues` there is one leaf, default, with capacity 1. Jobs naming
// a queue that is not configured are an error, as in YARN.
//
// # Locality and delays
//
// fifo has none (§2). fair follows §1.4 when both locality_node and
// locality_rack are >= 0 (off by default, as in YARN). capacity counts
// missed opportunities per §2 (node_locality_delay 40, capped at the
// machine count). delay implements §3 for map-like requests only, as HFS
// does: variant skip (default; the paper's Algorithm 2, with D from §3.3
// unless `skips` is given) or wait (HFS's two levels, W1 and W2 defaulting to
// min(15s, 1.5 x heartbeat)). Schedulers that delay ask the engine for
// heartbeats, so that opportunities keep coming while slots stay free; every
// Offer call in which an app is asked is one opportunity for it.
//
// # Errors at run time
//
// A job naming an unknown or parent queue is never placed; the scheduler
// records the first such error (see Err), and the run ends as stalled.
//
// # Simplifications
//
// Demand is recomputed at every offer (no update interval), fair shares and
// preemption are not modelled (they do not order containers, §1.2), nor are
// reservations, maxRunningApps, AM containers or size-based app weights.
package queue
