// Package shufflewatcher is `sw-delay`: ShuffleWatcher (Ahmad et al., USENIX
// ATC 2014) on top of delay scheduling, the SW-delay baseline of NAS §IV.
//
// Only ShuffleWatcher's abstract was available, so this is the documented
// reconstruction of shared/design/baselines.md §5: its three ideas are from
// the paper, every threshold below is ours.
//
//  1. Network-aware shuffle scheduling. The smoothed cross-rack utilisation
//     (View.Monitor, the signal NAS uses too) switches deferral on above
//     defer_above (0.8) and off below resume_below (0.5). While deferring, the
//     reducers of jobs whose shuffle/input ratio exceeds shuffle_ratio (0.3)
//     wait and their container goes to the next job's maps, unless the job
//     runs fewer than (1 - fair_slack) of its fair share of containers or
//     has waited max_defer (60 s).
//  2. Shuffle-aware map placement. A shuffle-heavy job gets a preferred rack
//     set: the fewest racks whose containers hold its fair share, chosen by
//     how many of its splits have a replica there. Its maps run node- or
//     rack-local inside the set; elsewhere the job is skipped, delay-
//     scheduling style, until it was skipped D times.
//  3. Shuffle-aware reduce placement. A job's reducers go to racks in
//     proportion to its map output there: a rack that already holds its
//     share is skipped, again for at most D skips.
//
// For Dawn's baseline ("ShuffleWatcher", compared on MapReduce workflows,
// §6.1) two extensions carry the same ideas to jobs the NAS trace does not
// have, again ours rather than the paper's:
//
//   - a map stage that reads its parent jobs' outputs (a workflow) and no
//     file split takes its rack set from the bytes of those outputs per
//     rack, and is held to it like a heavy job's file-reading maps;
//   - every stage with parent stages (a reduce, or a later stage of a Tez
//     job) takes its rack shares from its own parent stages' output (idea
//     3 for each shuffle of a multi-stage job).
//
// On MapReduce jobs without parent jobs (the NAS workload) both reduce to
// the rules above, decision for decision.
//
// Underneath is delay scheduling (baselines.md §3.1) with fair ordering of
// jobs (fewest running tasks first, then arrival): a job's reducers are
// asked before its maps (the MR application master's priorities, §0), a
// node-local map resets the job's skip count, and after D skips (default:
// §3.3's bound, as the `delay` scheduler) a non-local map may launch.
// Shuffle sizes are the estimator's (View.Estimate of each map's output),
// as baselines.md §5 assumes ("known in the simulator").
package shufflewatcher
