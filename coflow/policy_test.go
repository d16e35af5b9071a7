package coflow

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/netsched/netsched/trace/coflowbench"
)

// synthetic draws a small random trace: overlapping coflows of mixed
// widths and sizes on few ports, some with node-local shares.
func synthetic(t testing.TB, seed uint64, ports, coflows int) *coflowbench.Trace {
	rng := rand.New(rand.NewPCG(seed, 1))
	var lines []string
	arrival := 0
	for i := range coflows {
		arrival += rng.IntN(3000)
		var b strings.Builder
		nm := 1 + rng.IntN(4)
		fmt.Fprintf(&b, "c%d %d %d", i, arrival, nm)
		for range nm {
			fmt.Fprintf(&b, " %d", rng.IntN(ports))
		}
		nr := 1 + rng.IntN(4)
		fmt.Fprintf(&b, " %d", nr)
		for range nr {
			fmt.Fprintf(&b, " %d:%d", rng.IntN(ports), rng.IntN(200))
		}
		lines = append(lines, b.String())
	}
	return parseTrace(t, ports, lines...)
}

// variants is every policy plus the options that change its behaviour.
func variants() []Options {
	var out []Options
	for _, p := range Policies() {
		out = append(out, Options{Policy: p})
		if p != Fair {
			out = append(out, Options{Policy: p, RescheduleOnFlowCompletion: true})
		}
		if p != Fair {
			out = append(out, Options{Policy: p, IdleFreedBandwidth: true})
		}
	}
	// CoflowSim's approximations, all together, on every policy.
	for _, p := range Policies() {
		out = append(out, Options{Policy: p, MergeRackFlows: true, MinFlow: mib / 2, RoundFlows: mib / 4,
			SamePortFlows: true, TimeStep: 0.05})
	}
	// CoflowSim's Dark simulator as closely as the options go.
	out = append(out, Options{Policy: Aalo, AaloNoBackfill: true, AaloRequeueAtEvents: true},
		Options{Policy: Aalo, AaloNoBackfill: true, AaloRequeueAtEvents: true, IdleFreedBandwidth: true,
			MergeRackFlows: true, RoundFlows: mib / 4, SamePortFlows: true, TimeStep: 0.05})
	return append(out, Options{Policy: Aalo, AaloWeighted: true},
		Options{Policy: Aalo, AaloWeighted: true, IdleFreedBandwidth: true},
		Options{Policy: Aalo, AaloWeighted: true, RescheduleOnFlowCompletion: true})
}

func name(o Options) string {
	return fmt.Sprintf("%s/weighted=%v/realloc=%v/idle=%v/coflowsim=%v/dark=%v", o.Policy, o.AaloWeighted, o.RescheduleOnFlowCompletion, o.IdleFreedBandwidth, o.TimeStep > 0, o.AaloNoBackfill)
}

// Every policy finishes every coflow no sooner than it could alone: its
// busiest port's bytes over the port speed. The whole trace cannot end
// before the busiest port has moved all its bytes.
func TestPoliciesOnSyntheticTrace(t *testing.T) {
	const speed = mib // 1 MiB/s: trace MB read as seconds
	tr := synthetic(t, 7, 6, 40)
	alone := make([]float64, len(tr.Coflows))
	var up, down [6]float64
	for i := range tr.Coflows {
		var u, d [6]float64
		flows, _ := buildFlows(&tr.Coflows[i], flowModel{})
		for _, f := range flows {
			u[f.src] += f.size
			d[f.dst] += f.size
		}
		for p := range 6 {
			alone[i] = max(alone[i], u[p]/speed, d[p]/speed)
			up[p] += u[p]
			down[p] += d[p]
		}
	}
	var busiest float64
	for p := range 6 {
		busiest = max(busiest, up[p]/speed, down[p]/speed)
	}
	for _, opt := range variants() {
		opt.PortSpeed = speed
		res := replay(t, tr, opt)
		last := 0.0
		for i, r := range res.Coflows {
			if r.CCT < alone[i]*(1-1e-9) || !near(r.Finish, r.Arrival+r.CCT) {
				t.Errorf("%s: coflow %s CCT %v below its bound %v", name(opt), r.ID, r.CCT, alone[i])
			}
			last = max(last, r.Finish)
		}
		if span := last - tr.Coflows[0].Arrival; span < busiest*(1-1e-9) {
			t.Errorf("%s: trace ends after %v s, before the busiest port could (%v s)", name(opt), span, busiest)
		}
		if s := res.Summary; s.Coflows != 40 || s.CCT.Count != 40 ||
			s.Bins.ShortNarrow.Count+s.Bins.ShortWide.Count+s.Bins.LongNarrow.Count+s.Bins.LongWide.Count != 40 {
			t.Errorf("%s: summary counts %+v", name(opt), s)
		}
	}
}

// Two replays of the same trace give byte-identical output files.
func TestDeterminism(t *testing.T) {
	tr := synthetic(t, 11, 8, 60)
	for _, opt := range variants() {
		a, err := replay(t, tr, opt).Files()
		if err != nil {
			t.Fatal(err)
		}
		b, err := replay(t, tr, opt).Files()
		if err != nil {
			t.Fatal(err)
		}
		for i := range a {
			if a[i].Name != b[i].Name || !bytes.Equal(a[i].Bytes(), b[i].Bytes()) {
				t.Errorf("%s: %s differs between runs", name(opt), a[i].Name)
			}
		}
	}
}

// Aalo never lets a coflow run past its queue's limit unnoticed: after every
// instant of the replay, each active coflow has sent less than its queue's
// limit. With a small first limit the synthetic trace crosses limits often,
// also between reallocations (after a refill raised a coflow's rate).
func TestAaloNoMissedCrossing(t *testing.T) {
	tr := synthetic(t, 5, 6, 40)
	steps := 0
	afterStep = func(r *replayer, now float64) {
		steps++
		r.refresh()
		for _, c := range r.active {
			if c.Queue >= r.aalo.Config().Queues-1 {
				continue
			}
			if s, lim := c.Sent(), r.aalo.Limit(c.Queue); s > lim*(1+1e-6) {
				t.Fatalf("t=%v: coflow %d in queue %d sent %v, past its limit %v", now, c.Index, c.Queue, s, lim)
			}
		}
	}
	defer func() { afterStep = nil }()
	for _, opt := range []Options{
		{Policy: Aalo}, {Policy: Aalo, AaloWeighted: true},
		{Policy: Aalo, IdleFreedBandwidth: true}, {Policy: Aalo, RescheduleOnFlowCompletion: true},
	} {
		opt.PortSpeed, opt.AaloFirstLimit, opt.AaloMultiplier = mib, mib/4, 3
		replay(t, tr, opt)
	}
	if steps < 100 {
		t.Fatalf("only %d steps checked", steps)
	}
}
