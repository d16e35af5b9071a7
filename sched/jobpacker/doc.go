// Package jobpacker is JobPacker (Li and Shen, ICPP 2019,
// shared/papers/jobpacker-icpp19.txt): job scheduling for data-parallel
// frameworks on a hybrid electrical/optical network, where racks reach
// each other through an oversubscribed electrical core (EPS) and an
// optical circuit switch (OCS) whose circuits serve only large transfers.
//
//   - Shuffle aggregation (§4.2, aggregate.go). A planned shuffle-heavy
//     job's reducers start late (slow-start 0.7, emulated: the workload's
//     slow-start is a stage property a scheduler cannot change, so the
//     reducers are simply not placed before 70% of the maps are done) and
//     their fetches are held (FetchGater). A (source rack, reduce rack)
//     pair's held bytes leave together, as one transfer marked with its
//     total (Plan.ReleaseRackTogether), once they reach the elephant
//     threshold or no more can come; on the network such a transfer is one
//     elephant for the OCS even though each of its flows is small.
//   - Job profiler (§4.3.1, profile.go): eq. 1's latency over (map-width,
//     reduce-width) rack pairs without LRF's equal widths; the pairs whose
//     per-pair chunk D^s/(r^map r^red) reaches the elephant threshold use
//     the OCS; the feasible pairs are those that do so without giving up
//     parallelism (Fig. 5's green zone).
//   - Offline scheduler (§4.3.2, offline.go, racks.go). Batch: B Tetris
//     sub-batches (sched/internal/tetris), each sorted by width then
//     latency, combined in a random order from the scenario seed. Online:
//     by predicted arrival. Jobs are scheduled one by one on the racks'
//     container free times T_ik: a shuffle-heavy job on the feasible pair
//     that completes earliest, any other job on the first free containers.
//     The plan reserves (1 + over-provisioning) x the containers a job
//     needs, leaving room for ad-hoc jobs.
//   - Real-time scheduler (§4.4, jobpacker.go, package rackplan): one
//     replica of each input split on the job's planned map racks; each rack
//     follows its planned sequence; ad-hoc jobs run under Fair on what the
//     plan leaves, shuffle-heavy ones (input over 1 GB) kept apart.
//
// Predictions are the Forecasts the engine gives a Planner, through the
// scenario's knowledge model (relative errors for §5.4.1, arrival errors
// for §5.4.2). Jobs a forecast marks recurring are planned; the others are
// ad-hoc. The network parameters (elephant threshold, OCS port and EPS
// uplink speeds) repeat the scenario's: the View does not expose them.
//
// docs/reproductions/jobpacker.md compares the paper's figures with runs
// of experiment/catalog/jobpacker.
package jobpacker
