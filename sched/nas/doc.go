// Package nas is the Network-Aware Scheduler of Li, Shen and Sarker
// (CCGrid 2018, shared/papers/nas-ccgrid18.txt) for netsched: a shuffle-size
// predictor (§III-A) and three mechanisms that shape shuffle traffic where
// it is created.
//
//   - MTS (§III-C, Algorithm 2) caps the predicted shuffle output of the maps
//     running on each node at TrafficThreshold = m·ΣS_i/ΣK_i (eq. 3), with
//     delay-scheduling-style skip counters per user (D^m).
//   - CA-RTS (§III-D, Algorithm 3), used while the cross-rack network is not
//     congested, places a job's reducers on racks in proportion to where its
//     map output is (ReduceNum = TotalReduceNum·MapOutputPortion, eq. 4).
//   - CR-RTS (§III-E, Algorithm 4), used while it is congested, starts only
//     reducers of shuffle-light jobs (skip counter D^r per user), marks the
//     others delayed, and tells MTS to hold shuffle-heavy and -medium maps.
//
// # How the paper maps onto netsched
//
// A node request (Algorithm 1) is an Offer for machine m. Slots are generic
// containers, so the request type follows the user being served: users are
// visited in fairness order (fewest running tasks first) and, as an MR
// application master asks for reducers before maps (shared/design/
// baselines.md §0), each user's waiting reducers are tried first (CA-RTS,
// or CR-RTS when congested), then its maps (MTS, with its skip counter).
// A root stage of a job (with or without file input) is a map stage; every
// other stage is a reduce stage. Skip counters count scheduling
// opportunities: immediate offers when slots free and the periodic
// heartbeats NAS asks for.
//
// The engine models neither the MR application master's reduce ramp-up
// limit nor reduce preemption, without which reducers that started at
// slow-start can hold every container while the maps they wait for cannot
// start. NAS therefore lets a job with maps waiting hold reducers in at
// most reduce_rampup (0.5) of its containers, and all such early reducers
// at most that share of the cluster (see mayStartReducer).
//
// The network state is the monitor's smoothed cross-rack utilisation
// (View.Monitor), compared with this scheduler's own congestion_threshold
// (the scenario's monitor threshold only drives the `congested_samples`
// measure).
//
// Shuffle sizes come from the predictor: a job's map output/input ratio is
// the mean over its completed maps of estimated output / estimated input,
// both read through View.Estimate, so the knowledge model's error applies
// (with the default exact model the first completed map gives the true
// ratio). Jobs with no completed map are "unpredicted" and use ratio 1.
// With shuffle_size: known the estimator's output of each map is used from
// the start (the paper's "provided by users" case).
//
// Ablations are parameters: ca_rts: false is MTS only (reducers go to the
// first user in fairness order, its jobs in arrival order); cr_rts: false
// keeps CA-RTS during congestion (MTS + CA-RTS); traffic_threshold: false
// makes every map shuffle-qualified (Fig. 3g "w/o TT").
package nas
