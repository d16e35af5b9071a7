package cotask

import (
	"math"

	"github.com/netsched/netsched/lp"
)

// feasibleAt is the paper's CCT-LP feasibility test at a fixed t, built
// from scratch as a plain lp.Problem with no warm start and no scaling:
// variables x_jk for pairs with w_k + t_jk <= t, Σ_k x_jk = 1 per task,
// Σ_j t_jk x_jk <= t − w_k per host with such a pair. It is the reference
// MinCCT is checked against.
func feasibleAt(in Instance, t float64) bool {
	T, M := len(in.Times), len(in.Backlog)
	p := &lp.Problem{}
	task := make([]lp.Row, T)
	host := make([]lp.Row, M)
	for j := range task {
		task[j] = lp.Row{Sense: lp.EQ, RHS: 1}
	}
	for k := range host {
		host[k] = lp.Row{Sense: lp.LE, RHS: t - in.Backlog[k]}
	}
	for j, row := range in.Times {
		for k, tjk := range row {
			if in.Backlog[k]+tjk <= t {
				q := len(p.Obj)
				p.Obj = append(p.Obj, 0)
				task[j].Ind, task[j].Val = append(task[j].Ind, q), append(task[j].Val, 1)
				host[k].Ind, host[k].Val = append(host[k].Ind, q), append(host[k].Val, tjk)
			}
		}
	}
	for j := range task {
		if len(task[j].Ind) == 0 {
			return false
		}
	}
	for k := range host {
		if len(host[k].Ind) > 0 {
			p.Rows = append(p.Rows, host[k])
		}
	}
	p.Rows = append(p.Rows, task...)
	sol, err := p.Solve()
	return err == nil && sol.Status == lp.Optimal
}

// ilpOptimum enumerates every placement (M^T of them) and returns the
// least CCT.
func ilpOptimum(in Instance) float64 {
	T, M := len(in.Times), len(in.Backlog)
	host := make([]int, T)
	best := math.Inf(1)
	var rec func(j int)
	rec = func(j int) {
		if j == T {
			best = min(best, in.cct(host))
			return
		}
		for k := 0; k < M; k++ {
			if !math.IsInf(in.Times[j][k], 1) {
				host[j] = k
				rec(j + 1)
			}
		}
	}
	rec(0)
	return best
}
