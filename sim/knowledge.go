package sim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/netsched/netsched/internal/state"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/workload"

	"github.com/netsched/netsched/scenario"
)

// knowledge is the estimator between the engine's truth and schedulers. Each
// task gets a fixed error per quantity, drawn from a hash of (seed, job,
// stage, task, quantity) so estimates are repeatable and independent of the
// order in which schedulers ask.
type knowledge struct {
	model string
	f     float64
	rate  float64
	sigma float64
	seed  uint64
	// arrival forecasts: a share of the jobs is off by up to jitter seconds
	arrivalShare, arrivalJitter float64
}

func newKnowledge(k scenario.KnowledgeSpec, seed uint64) (*knowledge, error) {
	kn := &knowledge{model: k.Model, f: k.F, rate: k.Rate, sigma: k.Sigma, seed: seed,
		arrivalShare: k.ArrivalShare, arrivalJitter: float64(k.ArrivalJitter)}
	switch k.Model {
	case "", "exact":
		kn.model = "exact"
	case "multiplicative":
		if k.F < 1 {
			return nil, fmt.Errorf("knowledge: multiplicative needs f >= 1, got %g", k.F)
		}
	case "relative":
		if k.Rate < 0 || k.Rate >= 1 {
			return nil, fmt.Errorf("knowledge: relative needs 0 <= rate < 1, got %g", k.Rate)
		}
	case "gaussian":
		if k.Sigma < 0 {
			return nil, fmt.Errorf("knowledge: gaussian needs sigma >= 0, got %g", k.Sigma)
		}
	default:
		return nil, fmt.Errorf("knowledge: unknown model %q (want exact, multiplicative, relative, gaussian)", k.Model)
	}
	return kn, nil
}

// estimate is the knowledge model's estimate of t (exact by default), its
// compute time on a machine of the given speed.
func (k *knowledge) estimate(t *state.Task, speed float64) sched.Estimate {
	return sched.Estimate{
		Input:   t.InputBytes * k.factor(t, 0),
		Compute: t.ComputeTime / speed * k.factor(t, 1),
		Output:  t.OutputBytes * k.factor(t, 2),
	}
}

// factor is the multiplicative error of one quantity of one task.
func (k *knowledge) factor(t *state.Task, quantity uint64) float64 {
	return k.factorOf(t.Stage.Job.Seq, t.Stage.Index, t.Index, quantity)
}

// factorOf is factor for the task of job seq, stage and index.
func (k *knowledge) factorOf(seq, stage, index int, quantity uint64) float64 {
	if k.model == "exact" {
		return 1
	}
	h := mix(k.seed ^ mix(uint64(seq)<<20^uint64(stage)<<8^quantity) ^ mix(uint64(index)+0x51))
	u := float64(h>>11) / (1 << 53)
	switch k.model {
	case "multiplicative": // PushBox §7.2: E = f^(2U-1)
		return math.Pow(k.f, 2*u-1)
	case "relative": // JobPacker §5.4.1
		return 1 + k.rate*(2*u-1)
	case "gaussian": // CSS §V-C
		u2 := float64(mix(h)>>11) / (1 << 53)
		n := math.Sqrt(-2*math.Log(1-u)) * math.Cos(2*math.Pi*u2)
		return math.Max(0, 1+k.sigma*n)
	}
	return 1
}

// mix is splitmix64's finaliser: a cheap, well-spread hash.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// forecast is what a planner may know of the job that arrives seq-th: its
// stages' task counts and sizes, each task's quantities through the same
// error model as Estimate. Tasks are drawn from the job's own stream, as
// they will be on arrival. A task's input counts its file split and its
// share of its parent stages' output; outputs given as a ratio follow it.
func (k *knowledge) forecast(spec *workload.Job, seq int, r *rand.Rand) sched.Forecast {
	f := sched.Forecast{ID: spec.ID, Arrival: k.arrival(spec.Arrival, seq), Recurring: spec.Recurring, User: spec.User, Queue: spec.Queue,
		After: append([]string(nil), spec.After...)}
	outBy := map[string]float64{} // true output of each stage so far, by id
	for si := range spec.Stages {
		ss := &spec.Stages[si]
		tasks := ss.Expand(r)
		sf := sched.StageForecast{ID: ss.ID, Tasks: len(tasks)}
		totalShare := 0.0
		for _, t := range tasks {
			totalShare += t.Share
		}
		parentOut := 0.0
		for _, d := range ss.After {
			sf.Parents = append(sf.Parents, d.Stage)
			switch d.Pattern {
			case workload.Broadcast:
				parentOut += outBy[d.Stage] * float64(len(tasks))
			default:
				parentOut += outBy[d.Stage]
			}
		}
		out := 0.0
		for ti, t := range tasks {
			in := t.Input
			if totalShare > 0 {
				in += parentOut * t.Share / totalShare
			}
			o := t.Output
			if t.OutputRatio > 0 {
				o = t.OutputRatio * in
			}
			out += o
			sf.Input += t.Input * k.factorOf(seq, si, ti, 0)
			sf.Compute += (t.Compute + t.PerByte*in) * k.factorOf(seq, si, ti, 1)
			sf.Output += o * k.factorOf(seq, si, ti, 2)
		}
		outBy[ss.ID] = out
		f.Stages = append(f.Stages, sf)
	}
	return f
}

// arrival is the forecast arrival of the job that arrives seq-th: for a
// share of the jobs (chosen by hash) the truth plus U(-jitter, +jitter),
// never before time 0 (JobPacker §5.4.2 delays f% of the jobs by up to
// ±200 s).
func (k *knowledge) arrival(truth float64, seq int) float64 {
	if k.arrivalShare == 0 {
		return truth
	}
	h := mix(k.seed ^ mix(uint64(seq)<<20^0xa771) ^ 0x5eed)
	if float64(h>>11)/(1<<53) >= k.arrivalShare {
		return truth
	}
	u := float64(mix(h)>>11) / (1 << 53)
	return math.Max(0, truth+k.arrivalJitter*(2*u-1))
}
