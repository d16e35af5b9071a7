package sim

import (
	"fmt"
	"math"

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
}

func newKnowledge(k scenario.KnowledgeSpec, seed uint64) (*knowledge, error) {
	kn := &knowledge{model: k.Model, f: k.F, rate: k.Rate, sigma: k.Sigma, seed: seed}
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

// Estimate is what a scheduler may know about a task.
type Estimate struct {
	Input   float64 // bytes the task reads (file input plus parent output)
	Compute float64 // seconds of compute
	Output  float64 // bytes it writes
}

// Estimate returns the knowledge model's estimate of t (exact by default).
func (v *View) Estimate(t *Task) Estimate {
	k := v.e.knowledge
	return Estimate{
		Input:   t.inputBytes * k.factor(t, 0),
		Compute: t.computeTime * k.factor(t, 1),
		Output:  t.outputBytes * k.factor(t, 2),
	}
}

// factor is the multiplicative error of one quantity of one task.
func (k *knowledge) factor(t *Task, quantity uint64) float64 {
	if k.model == "exact" {
		return 1
	}
	h := mix(k.seed ^ mix(uint64(t.Stage.Job.Seq)<<20^uint64(t.Stage.Index)<<8^quantity) ^ mix(uint64(t.Index)+0x51))
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
