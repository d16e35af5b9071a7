// Package cotask is the placement mathematics of CSS (§IV of the CSS
// paper, ../shared/papers/css-cotask.txt): for one cotask, find the lower
// bound t* of its completion time from the LP relaxation CCT-LP (MinCCT),
// round the fractional placement to one host per task with the
// pseudo-forest rounding of Algorithm 2 (Round), gather tasks on fewer
// hosts without making the cotask later (Aggregate, Algorithm 3), and
// order the tasks queued on each host longest first (OrderLongestFirst,
// §IV-C). Place composes the four. Improve, not a step of the paper, is a
// local search that lowers a rounded placement's CCT; package css runs it
// between Round and Aggregate.
//
// # Model
//
// As in the paper, a host is a sequential queue of work: host k first
// finishes its backlog w_k (seconds of work queued before this cotask),
// then runs the cotask's tasks placed on it one after another, so it
// completes them at w_k + Σ t_jk over the tasks j placed on k. Slots are
// not modelled: a host with several slots must be presented as several
// hosts, or its times scaled, by the caller. The cotask completion time
// (CCT) of a placement is the largest completion time over the hosts that
// receive at least one of its tasks. All times are in seconds; t_jk =
// +Inf means host k cannot run task j.
//
// # Deviation from the paper
//
// The paper writes the host constraint (1a)/(1aL) for every host k, which
// would force t ≥ max_k w_k even for hosts that receive nothing: a single
// busy host would delay every cotask. We apply it only to hosts that can
// receive a task at the t being tested (T_k(t − w_k) non-empty), which is
// what CCT means. Every host that can receive a task at t has w_k ≤ t, so
// Theorem 1's bound 2t* − min_k w_k still holds, with the minimum over the
// hosts that can run some task.
//
// The package is pure: functions of plain data, deterministic, with no
// dependency on the rest of netsched; it uses the lp package for the LPs.
package cotask

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Errors. Input errors wrap ErrInvalid; a task no host can run gives
// ErrNoHost.
var (
	ErrInvalid = errors.New("cotask: invalid input")
	ErrNoHost  = errors.New("cotask: task has no host that can run it")
)

// Instance is one cotask as the placement sees it.
type Instance struct {
	// Times[j][k] is the time in seconds task j takes on host k, >= 0;
	// +Inf means host k cannot run task j. Every row has one entry per
	// host.
	Times [][]float64
	// Backlog[k] is the work in seconds queued on host k before this
	// cotask, >= 0 and finite.
	Backlog []float64
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// dims validates in and returns the number of tasks and hosts.
func (in Instance) dims() (T, M int, err error) {
	T, M = len(in.Times), len(in.Backlog)
	if T == 0 {
		return 0, 0, invalid("cotask has no tasks")
	}
	if M == 0 {
		return 0, 0, invalid("no hosts (Backlog is empty)")
	}
	for k, w := range in.Backlog {
		if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
			return 0, 0, invalid("backlog of host %d is %v, want finite and >= 0", k, w)
		}
	}
	for j, row := range in.Times {
		if len(row) != M {
			return 0, 0, invalid("task %d has %d times, want %d (one per host)", j, len(row), M)
		}
		for k, t := range row {
			if math.IsNaN(t) || t < 0 {
				return 0, 0, invalid("time of task %d on host %d is %v, want >= 0 or +Inf", j, k, t)
			}
		}
	}
	return T, M, nil
}

// taskBounds checks that every task can run somewhere and returns, per
// task, the earliest time it could finish alone: min_k w_k + t_jk.
func (in Instance) taskBounds() ([]float64, error) {
	b := make([]float64, len(in.Times))
	for j, row := range in.Times {
		b[j] = math.Inf(1)
		for k, t := range row {
			b[j] = min(b[j], in.Backlog[k]+t)
		}
		if math.IsInf(b[j], 1) {
			return nil, fmt.Errorf("%w: task %d (every time is +Inf)", ErrNoHost, j)
		}
	}
	return b, nil
}

// checkPlacement validates a placement (host index per task) against in.
func (in Instance) checkPlacement(host []int) error {
	T, M := len(in.Times), len(in.Backlog)
	if len(host) != T {
		return invalid("placement has %d entries, want %d (one per task)", len(host), T)
	}
	for j, k := range host {
		if k < 0 || k >= M {
			return invalid("task %d placed on host %d, out of range [0,%d)", j, k, M)
		}
		if math.IsInf(in.Times[j][k], 1) {
			return invalid("task %d placed on host %d, which cannot run it", j, k)
		}
	}
	return nil
}

// completions returns w_k + the sum of the times of the tasks placed on k
// (summed in task order), and how many tasks each host got.
func (in Instance) completions(host []int) ([]float64, []int) {
	done := slices.Clone(in.Backlog)
	count := make([]int, len(in.Backlog))
	for j, k := range host {
		done[k] += in.Times[j][k]
		count[k]++
	}
	return done, count
}

// CCT is the completion time of the cotask under a placement (host[j] is
// the host of task j): the largest w_k + Σ t_jk over hosts that got a task.
func CCT(in Instance, host []int) (float64, error) {
	if _, _, err := in.dims(); err != nil {
		return 0, err
	}
	if err := in.checkPlacement(host); err != nil {
		return 0, err
	}
	return in.cct(host), nil
}

func (in Instance) cct(host []int) float64 {
	done, count := in.completions(host)
	c := 0.0
	for k, n := range count {
		if n > 0 {
			c = max(c, done[k])
		}
	}
	return c
}

// OrderLongestFirst returns the tasks placed on one host in the order to
// run them (§IV-C): longest time on that host first, ties by task index.
// Running the long tasks first leaves the short ones at the back of the
// queue, where DTPA can still move them to another host cheaply if the
// cotask gets blocked, and delays the start of the next stage least.
func OrderLongestFirst(in Instance, host int, tasks []int) ([]int, error) {
	if _, M, err := in.dims(); err != nil {
		return nil, err
	} else if host < 0 || host >= M {
		return nil, invalid("host %d out of range [0,%d)", host, M)
	}
	for _, j := range tasks {
		if j < 0 || j >= len(in.Times) {
			return nil, invalid("task %d out of range [0,%d)", j, len(in.Times))
		}
	}
	return in.longestFirst(host, tasks), nil
}

// longestFirst is OrderLongestFirst on validated input.
func (in Instance) longestFirst(host int, tasks []int) []int {
	out := slices.Clone(tasks)
	slices.SortStableFunc(out, func(a, b int) int {
		ta, tb := in.Times[a][host], in.Times[b][host]
		switch {
		case ta > tb:
			return -1
		case ta < tb:
			return 1
		}
		return a - b
	})
	return out
}
