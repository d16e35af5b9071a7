package gen

import (
	"fmt"

	"github.com/netsched/netsched/workload"
)

// tezJob turns a sized workflow into one multi-stage job, as Hive on Tez
// runs a query (Dawn §5.2, §6.2): every file a job reads becomes a scan
// stage (a Tez map vertex) and every job a stage fed by its scans and by
// its parent jobs' stages, so temporary results move between stages
// instead of through the DFS. The edges are the three patterns of Dawn
// Fig. 10, chosen per job:
//
//   - a join whose inputs other than the largest are all smaller than
//     BroadcastBelow is a map join (Hive's automatic conversion): the small
//     inputs are broadcast and the largest one feeds it one-to-one, at its
//     parallelism, with no shuffle;
//   - a job with a single input that comes from a parent whose output is
//     already partitioned by the job's key (the parent shuffled on it)
//     needs no new shuffle: one-to-one (a group-by on a join's key);
//   - every other input is scatter-gather (a shuffle).
//
// Bytes stay those of the MapReduce form: a scan writes what the job's maps
// wrote from that file, and a job stage writes what the job's reducers
// wrote, so only the DFS round trips and the per-job map stages go.
func (w *Workflow) tezJob(id string, t, input float64, sz []sized) workload.Job {
	p := &w.Params
	type edge struct {
		stage string
		bytes float64
		tasks int
		key   string // how the source's output is partitioned ("" for a scan)
		scan  bool
		dep   workload.Dep
	}
	j := workload.Job{ID: id, Arrival: t}
	tasks := make([]int, len(sz))
	// part is how a job stage's output is partitioned: by its key when it
	// shuffles, else as its one-to-one source is (a scan: not by a key).
	part := make([]string, len(sz))
	for i, s := range sz {
		var in []edge
		for _, r := range s.reads {
			bytes := input * r.share
			n := p.MapCount(bytes)
			st := s.name + "." + r.table
			j.Stages = append(j.Stages, workload.Stage{ID: st, Generate: &workload.TaskGen{
				Count: n, Input: workload.ConstDist(bytes / float64(n)),
				Compute: workload.ConstDist(p.MapOverhead), PerByte: 1 / p.MapRate,
				OutputRatio: r.sel,
			}})
			in = append(in, edge{stage: st, bytes: bytes * r.sel, tasks: n, scan: true})
		}
		for _, pi := range s.parents {
			in = append(in, edge{stage: sz[pi].name, bytes: sz[pi].output, tasks: tasks[pi], key: part[pi]})
		}
		big := 0
		for k := range in {
			if in[k].bytes > in[big].bytes {
				big = k
			}
		}
		mapJoin := s.join && len(in) > 1
		for k := range in {
			mapJoin = mapJoin && (k == big || in[k].bytes < w.BroadcastBelow)
		}
		oneToOne := -1
		switch {
		case mapJoin:
			oneToOne = big
		case len(in) == 1 && !in[0].scan && s.key != "" && in[0].key == s.key:
			oneToOne = 0
		}
		var total, read float64
		shuffled := false
		for k := range in {
			e := &in[k]
			total += e.bytes
			switch {
			case k == oneToOne:
				e.dep = workload.Dep{Stage: e.stage, Kind: workload.StartsAfter, Pattern: workload.OneToOne}
			case mapJoin:
				e.dep = workload.Dep{Stage: e.stage, Kind: workload.StartsAfter, Pattern: workload.Broadcast}
			default:
				e.dep = workload.Dep{Stage: e.stage, Kind: workload.FinishesBefore, SlowStart: w.TezSlowStart, Pattern: workload.ScatterGather}
				shuffled = true
			}
		}
		if oneToOne >= 0 {
			tasks[i], part[i] = in[oneToOne].tasks, in[oneToOne].key
		} else {
			tasks[i], part[i] = p.ReduceCount(total, s.output), s.key
		}
		// What the engine delivers: a broadcast input once to every task.
		for _, e := range in {
			if e.dep.Pattern == workload.Broadcast {
				read += e.bytes * float64(tasks[i])
			} else {
				read += e.bytes
			}
		}
		g := &workload.TaskGen{Count: tasks[i],
			Compute: workload.ConstDist(p.ReduceOverhead), PerByte: 1 / p.ReduceRate}
		if read > 0 {
			g.OutputRatio = s.output / read
		}
		if shuffled {
			g.Share = p.ReduceSkew
		}
		st := workload.Stage{ID: s.name, Generate: g}
		for _, e := range in {
			st.After = append(st.After, e.dep)
		}
		j.Stages = append(j.Stages, st)
	}
	return j
}

// tezID is the id of workflow n's single Tez job.
func tezID(n int, kind string, q int) string {
	if kind == "tpch" {
		return fmt.Sprintf("wf%d-tpch-q%d", n, q)
	}
	return fmt.Sprintf("wf%d-%s", n, kind)
}
