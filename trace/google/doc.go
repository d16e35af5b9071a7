// Package google reads the Google cluster-data 2011 trace (clusterdata-2011-2,
// github.com/google/cluster-data) as netsched jobs, and generates workloads
// with the statistics of the CSS paper's production study, which drew its
// jobs from that trace (Xu et al., "Cotask Scheduling in Cloud Computing",
// §V-B), for when the trace is not at hand.
//
// The trace (format "google2011") is headerless CSV, usually gzipped, in
// files job_events/part-NNNNN-of-NNNNN.csv.gz and task_events/part-....
// Columns, as the trace's schema names them (mandatory ones starred):
//
//	task_events: timestamp*, missing info, job ID*, task index*, machine ID,
//	  event type*, user, scheduling class, priority*, CPU request, memory
//	  request, disk request, different-machine constraint
//	job_events:  timestamp*, missing info, job ID*, event type*, user,
//	  scheduling class, job name, logical job name
//
// Timestamps are microseconds; 0 marks events before the trace window and
// 2^63-1 events after it (the window itself starts at 600 s). Event types:
// 0 SUBMIT, 1 SCHEDULE, 2 EVICT, 3 FAIL, 4 FINISH, 5 KILL, 6 LOST,
// 7 UPDATE_PENDING, 8 UPDATE_RUNNING. Missing info 0..2 marks a record the
// trace's producers synthesized.
//
// The trace records no bytes and no stages, so a job becomes one stage of
// independent tasks, each computing for its measured duration (Load says
// exactly how); the generator ("css-production", CSSProduction) makes the
// same shape.
package google
