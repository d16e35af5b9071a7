package netpolicy

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/coflow/rate"
	"github.com/netsched/netsched/sched"
)

func init() {
	sched.RegisterNetwork(sched.DefineNetwork("varys",
		"Varys: a job's flows in flight are its coflow; coflows in the order's sequence get MADD rates "+
			"(all of a coflow's flows end together at its bottleneck), then leftover bandwidth is backfilled in arrival order",
		VarysConfig{Order: rate.SEBF},
		func(c VarysConfig) (sched.NetworkPolicy, error) {
			pol, err := rate.NewVarys(c.Order)
			if err != nil {
				return nil, err
			}
			return newCoflows(pol), nil
		}))
	sched.RegisterNetwork(sched.DefineNetwork("aalo",
		"Aalo D-CLAS: a job's coflow moves to a lower-priority queue whenever its bytes sent reach the next limit; "+
			"FIFO within a queue, strict priority (or weights) across queues, then backfill",
		AaloConfig{Queues: rate.DefaultQueues, FirstLimit: rate.DefaultFirstLimit, Multiplier: rate.DefaultMultiplier},
		func(c AaloConfig) (sched.NetworkPolicy, error) {
			pol, err := rate.NewAalo(c.rate())
			if err != nil {
				return nil, err
			}
			return newCoflows(pol), nil
		}))
}

// VarysConfig is varys's parameters.
type VarysConfig struct {
	Order string `param:"order" choices:"sebf|fifo|scf|ncf|lcf" help:"coflow order: sebf (smallest effective bottleneck), fifo (job arrival), scf (smallest largest flow), ncf (fewest senders or receivers), lcf (least remaining bytes)"`
}

// AaloConfig is aalo's parameters; the defaults are the coflow replay's.
type AaloConfig struct {
	Queues     int     `param:"queues" min:"1" max:"64" help:"number of queues K"`
	FirstLimit float64 `param:"first_limit" unit:"B" help:"bytes sent that move a coflow out of the first queue (10 MiB)"`
	Multiplier float64 `param:"multiplier" help:"each queue limit is this times the previous one"`
	Weighted   bool    `param:"weighted" help:"share each link between the queues present by weight K-q instead of strict priority"`
}

func (c *AaloConfig) rate() rate.AaloConfig {
	return rate.AaloConfig{Queues: c.Queues, FirstLimit: c.FirstLimit, Multiplier: c.Multiplier, Weighted: c.Weighted}
}

// Validate: bounds that tags cannot state (exclusive, finite).
func (c *AaloConfig) Validate() error {
	if !(c.FirstLimit > 0) || math.IsInf(c.FirstLimit, 0) {
		return sched.BadParam("first_limit", c.FirstLimit, "a size > 0")
	}
	if !(c.Multiplier > 1) || math.IsInf(c.Multiplier, 0) {
		return sched.BadParam("multiplier", c.Multiplier, "a number > 1")
	}
	return c.rate().Validate()
}

// Coflows sets every flow's rate from its job's coflow with a rate policy
// (varys, aalo); see sched.CoflowRater for when the engine asks. Flow
// classes do not matter under explicit rates: all are 0.
type Coflows struct {
	pol   rate.Policy
	alloc *rate.Allocator
	// jobs keeps a job's coflow while the job runs, so that Aalo's queue
	// (which only grows) survives the job's intervals without flows.
	jobs       map[sched.Job]*rate.Coflow
	active     []*rate.Coflow
	srcs, dsts map[int]bool // scratch: distinct senders and receivers
}

func newCoflows(pol rate.Policy) *Coflows {
	return &Coflows{pol: pol, jobs: map[sched.Job]*rate.Coflow{}, srcs: map[int]bool{}, dsts: map[int]bool{}}
}

func (*Coflows) FlowClass(sched.View, sched.Task, int) int { return 0 }

// RatePolicy is the rate policy, for the coflow replay.
func (p *Coflows) RatePolicy() rate.Policy { return p.pol }

// CoflowRates implements sched.CoflowRater: it rebuilds every job's coflow
// from its flows in flight (the links of a flow's route are its
// resources), reallocates from scratch and returns Aalo's next queue
// crossing (+Inf for varys).
func (p *Coflows) CoflowRates(v sched.View, links []float64, cs []sched.Coflow) (float64, error) {
	if p.alloc == nil || p.alloc.Resources() != len(links) {
		a, err := rate.NewAllocator(links)
		if err != nil {
			return 0, err
		}
		p.alloc = a
	}
	p.active = p.active[:0]
	for i := range cs {
		c, err := p.coflow(&cs[i], len(links))
		if err != nil {
			return 0, err
		}
		p.active = append(p.active, c)
	}
	next := rate.Reallocate(p.pol, p.alloc, v.Now(), p.active)
	for i := range cs {
		for k := range cs[i].Flows {
			cs[i].Flows[k].Rate = p.active[i].Flows[k].Next
		}
	}
	for j := range p.jobs {
		if j.Finish() >= 0 {
			delete(p.jobs, j)
		}
	}
	return next, nil
}

// coflow refreshes job c's coflow from its flows in flight: scf's largest
// flow and ncf's width are those of the flows in flight, and the coflow's
// bytes are what it sent plus what remains.
func (p *Coflows) coflow(in *sched.Coflow, links int) (*rate.Coflow, error) {
	c := p.jobs[in.Job]
	if c == nil {
		c = &rate.Coflow{Index: in.Job.Seq()}
		p.jobs[in.Job] = c
	}
	c.Flows, c.Longest, c.Bytes = c.Flows[:0], 0, in.Sent
	clear(p.srcs)
	clear(p.dsts)
	for _, f := range in.Flows {
		if len(f.Links) > rate.MaxHops {
			return nil, fmt.Errorf("flow of %s from machine %d crosses %d links, more than %d", f.Task, f.Src, len(f.Links), rate.MaxHops)
		}
		rf := rate.Flow{Rem: f.Remaining, Rate: -1}
		for _, l := range f.Links {
			if l < 0 || l >= links {
				return nil, fmt.Errorf("flow of %s from machine %d crosses link %d, not in [0, %d)", f.Task, f.Src, l, links)
			}
			rf.Res[rf.N] = int32(l)
			rf.N++
		}
		c.Flows = append(c.Flows, rf)
		c.Bytes += f.Remaining
		c.Longest = max(c.Longest, f.Size)
		p.srcs[f.Src] = true
		p.dsts[f.Task.Machine()] = true
	}
	c.Narrow = min(len(p.srcs), len(p.dsts))
	return c, nil
}
