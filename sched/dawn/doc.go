// Package dawn is Dawn, the dependency-aware network-adaptive scheduler of
// Wang, Chen, Zhou, Zhang and Wang (IEEE TPDS; shared/papers/
// dawn-tpds.txt), for netsched. Jobs of a workflow read their parent jobs'
// outputs; Dawn places tasks so that those outputs gather in few racks and
// the jobs that read them run next to them.
//
//   - Dependency detector (§3.1, Graph): Next_x, the jobs reading job x,
//     and Prev_{x,y}, the other jobs y reads, from the workflow's `after`
//     lists (Job.ParentJobs) as jobs arrive.
//   - Online plan (§3.2, Algorithm 2; plan.go, unit.go): preferred racks
//     per stage with the cross-rack bytes each would cost. An input stage
//     (maps, Tez scans) prefers max_map, the rack holding most of its
//     input (eqs. 2-3: DFS splits counted in every rack with a replica,
//     plus its parent jobs' outputs where they were written). A stage
//     reading other stages prefers max_reduce, the rack holding most of
//     its parents' output (eq. 4; a broadcast edge counts once per reading
//     task). A final stage of a job also prefers dep_reduce, the rack where
//     writing its output minimises the next jobs' input traffic given the
//     outputs of the finished jobs they also read (eqs. 5-7, greedy). Plans
//     are recomputed when what they read changes (Alg. 2 lines 13-16).
//   - Adaptive task scheduler (§3.3, Algorithm 1; select.go): netsched's
//     rack heartbeats (sched.RackHeartbeater) stand for the heartbeats of
//     the rack's nodes: each machine with a free container gets a task of
//     the job chosen by Alg. 1: while the network monitor says saturated,
//     the job of least traffic, otherwise the one of most traffic, among
//     the jobs preferring the rack; ties go to node-level data, then to
//     arrival. Before that, Algorithm 3 (balance.go) gives a job of the
//     most-preferred rack this rack too when no job (or, with b > 0, too
//     few) prefers it. Select states the choice; decide takes it from a
//     decision index (index.go) that keeps the jobs of each rack in
//     Select's order as plans change, so a decision does not visit every
//     active job.
//   - Starvation and fairness (§3.4): the paper relies on saturated and
//     unsaturated periods alternating; starve_after adds a guard and
//     fair_users the user-level fairness the paper mentions.
//
// # How the paper maps onto netsched
//
// Our readings, all parameters or documented here (docs/reproductions/
// dawn.md discusses their effect):
//
//   - A stage is planned when it can place: an input stage when it becomes
//     ready (its job's parents have finished, their outputs are located),
//     a later stage once its parent stages have finished (Alg. 2 line 7,
//     "map tasks finished"; the paper runs stages one after the other).
//     So Dawn starts no reducer at slow-start.
//   - Traffic estimates are per stage, not per task (§3.2.4: "we use the
//     whole network traffic between stages to estimate the traffic for
//     each task"), and sizes are the knowledge model's (View.Estimate);
//     the outputs of finished jobs are where the engine wrote them.
//   - Which preferred rack may take a task: any of them by default
//     (§3.3.3: "we choose the first job whose preferred racks contain the
//     rack i"); rack_choice: selected takes Alg. 1's pseudocode literally,
//     only the rack of least (saturated) or most traffic.
//   - Algorithm 3 balances when P_i = 0 or P_i < b x P_max: the text's
//     "with b = 0 ... only triggered when P_i = 0" (line 6 read literally
//     would never balance at b = 0). P_r counts the planned stages of
//     unfinished jobs preferring rack r, running or waiting: a job whose
//     tasks all run still prefers its racks (counting only waiting ones
//     makes every busy rack look unwanted). The hotspot job that takes the
//     rack is the one, with tasks to place, whose traffic there is least.
//   - NetworkSaturated is the monitor's verdict: smoothed cross-rack
//     utilisation at or above network.monitor.threshold (Dawn polls
//     netstat on every node).
//   - Pinned tasks (a test's or a data-placement policy's) run on their
//     machine whatever the plan says.
//   - One container per machine per heartbeat, as YARN's default
//     assignmultiple=false; assign_multiple fills the rack.
package dawn
