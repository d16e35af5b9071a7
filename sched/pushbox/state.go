package pushbox

import (
	"slices"

	"github.com/netsched/netsched/sched"
)

// jobState is what PushBox remembers about an active job.
type jobState struct {
	job    sched.Job
	coflow float64   // estimated bytes of the job's coflow (see coflowSize)
	fifo   bool      // its queue's policy is FIFO
	queue  int       // 0: the Fair (or only) queue, 1: the small-job FIFO queue
	stat   *JobStats // its counters (Stats)

	// Stages, most critical first: longest estimated path to the exit.
	critical []*stageState
	stages   []*stageState // by stage index

	// Delay scheduling (§5.1 task selection): skipped opportunities since
	// the job last launched a local task, and the pass that last counted
	// machine m (one opportunity per machine and pass).
	skips    int
	skipMark []uint32

	// The job's waiting tasks when pass passID first placed one of them
	// (taken in place, before the plan deducts it), so that the tasks picked
	// in the pass are the drop of job.Waiting() since.
	passID    uint32
	waitingAt int

	// jobOrder's kept order: key is the slots the job held when last
	// re-keyed (running plus picked in the pass), pos its place in its
	// queue's heap (-1: no waiting tasks), dirty that it waits for a
	// re-key, gone that it finished.
	key   int
	pos   int
	dirty bool
	gone  bool
}

// pickedNow is the number of the job's tasks picked in the current pass:
// the plan already deducted them from the job's waiting tasks.
func (js *jobState) pickedNow(id uint32) int {
	if js.passID != id {
		return 0
	}
	return js.waitingAt - js.job.Waiting()
}

// stageState keeps a stage's waiting tasks sorted by estimated input,
// largest first (§5.1: "sort tasks in descending order by input size"), so
// that a selection costs O(1) amortised instead of a sort per decision.
type stageState struct {
	st       sched.Stage
	path     float64 // estimated longest path from this stage to the exit
	fileOnly bool    // reads DFS blocks only: few sources, locality applies
	bySize   []sched.Task
	head     int
}

// machineState is Peña's view of one machine.
type machineState struct {
	// Effective receive rate (§4): an EMA of the measured rate, folded in
	// only over intervals in which the machine was receiving.
	rate   float64
	sample float64 // rate measured at lastT
	lastT  float64
	// Input-phase tasks in placement order.
	input []*entry
	// In Scheduler.sampling.
	sampling bool
}

// entry is an input-phase task on a machine.
type entry struct {
	t      sched.Task
	js     *jobState
	seq    int  // placement order (within-job priority)
	local  bool // counts as local: no network input phase worth controlling
	coflow float64
}

func (ms *machineState) remove(t sched.Task) {
	for i, e := range ms.input {
		if e.t == t {
			ms.input = slices.Delete(ms.input, i, i+1)
			return
		}
	}
}

func (ms *machineState) find(t sched.Task) *entry {
	for _, e := range ms.input {
		if e.t == t {
			return e
		}
	}
	return nil
}
