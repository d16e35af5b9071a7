// Package corral is Corral (Jalaparti, Bodik, Menache, Rao, Makarychev,
// Caesar, SIGCOMM 2015) as shared/design/baselines.md §7 describes it, the
// baseline of JobPacker's evaluation: an offline plan that puts each
// recurring job on a set of racks, places its input there, and runs its
// tasks only there, so that its shuffle stays inside its racks.
//
// The planner (planner.go) alternates prioritization and provisioning:
// every job starts on one rack; jobs are list-scheduled (batch: widest
// first, then longest; online: by predicted arrival) each on the racks
// that free up earliest, holding them for its latency L(r); then the job
// that ends last (batch) or takes longest (online) gets one more rack, and
// the best schedule found is kept. The latency response function
// (lrf.go) is map waves + the shuffle at its busier bottleneck (a rack's
// uplink or a machine's NIC) + reduce waves.
//
// What is reconstructed rather than taken from the paper, which was not
// available beyond its abstract, is marked [reconstruction] in the
// parameters: the LRF's formulas, the choice of the job to widen, the
// stopping rule and the spill knob. At run time the plan is carried out by
// package rackplan (shared with JobPacker): a rack runs its planned jobs
// in plan order, ad-hoc jobs run under Fair on what is left, and with
// spill: false (the default) a planned job never leaves its racks. Corral
// neither holds fetches nor knows the OCS: on a hybrid network its flows
// use circuits only when they are elephants by themselves.
package corral
