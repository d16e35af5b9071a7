package netpolicy_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/netpolicy"
	"github.com/netsched/netsched/sim"
)

// run simulates a scenario in check mode (no link above its capacity, among
// the engine's invariants) and returns the JCTs by job id.
func run(t *testing.T, yaml string) (map[string]float64, error) {
	t.Helper()
	r, err := sim.Run(schedtest.Parse(t, yaml))
	if err != nil {
		return nil, err
	}
	jct := map[string]float64{}
	for _, j := range r.Jobs {
		jct[j.ID] = j.JCT
	}
	return jct, nil
}

func checkJCTs(t *testing.T, what string, got map[string]float64, want map[string]float64) {
	t.Helper()
	for id, w := range want {
		if !schedtest.Near(got[id], w) {
			t.Errorf("%s: JCT of %s = %.12g, want %.12g (all: %v)", what, id, got[id], w, got)
		}
	}
}

// Two jobs arrive at 0; their reducers on machine 0 fetch over its 1MB/s
// downlink, A 4MB from machine 1 and B 2MB from machine 2.
//
//   - fair: 0.5MB/s each; B ends at 4, A has 2MB left and ends at 6.
//   - varys (sebf): B's bottleneck is 2 s, A's 4 s: B first, MADD rate 1MB/s
//     (Γ = 2), A finds down0 full and gets nothing (backfill neither). B ends
//     at 2, A then runs alone: 2 + 4 = 6.
//   - varys order fifo: A first (arrival): A ends at 4, B at 4 + 2 = 6.
//   - varys order lcf: B has fewer bytes: as sebf.
var twoCoflows = pair("4MB", "2MB", "0s")

// pair is two jobs on one rack of three machines with 1MB/s NICs: A
// arrives at 0 and B at bArrival; each has one map writing the given bytes
// (A's on machine 1, B's on machine 2) and one reducer on machine 0, so
// both shuffles cross machine 0's downlink.
func pair(aOut, bOut, bArrival string) string {
	return fmt.Sprintf(`
cluster: {racks: 1, machines_per_rack: 3, slots_per_machine: 2, nic: 1MB/s}
workload:
  jobs:
    - id: A
      arrival: 0s
      stages:
        - {id: map, tasks: [{compute: 0s, output: %s, pin: 1}]}
        - {id: reduce, after: map, tasks: [{compute: 0s, pin: 0}]}
    - id: B
      arrival: %s
      stages:
        - {id: map, tasks: [{compute: 0s, output: %s, pin: 2}]}
        - {id: reduce, after: map, tasks: [{compute: 0s, pin: 0}]}
`, aOut, bArrival, bOut)
}

func TestVarysSmallerCoflowFirst(t *testing.T) {
	for _, c := range []struct {
		sched string
		a, b  float64
	}{
		{"{name: fair, network: fair}", 6, 4},
		{"{name: fair, network: varys}", 6, 2},
		{"{name: fifo, network: varys, network_params: {order: sebf}}", 6, 2},
		{"{name: fair, network: varys, network_params: {order: lcf}}", 6, 2},
		{"{name: fair, network: varys, network_params: {order: fifo}}", 4, 6},
	} {
		got, err := run(t, twoCoflows+"scheduler: "+c.sched+"\n")
		if err != nil {
			t.Fatalf("%s: %v", c.sched, err)
		}
		checkJCTs(t, c.sched, got, map[string]float64{"A": c.a, "B": c.b})
	}
}

// Aalo with the default 10MB first limit at 1MB/s: A (30MB, machine 1 to 0)
// arrives at 0, B (3MB, machine 2 to 0) at 5 s.
//
//   - Strict queues: B joins Q0 behind A (FIFO), so A keeps down0. A has
//     sent 10MB at exactly t = 10 and drops to Q1: B takes down0 and ends at
//     13 (JCT 8); A sends its last 20MB from 13 to 33.
//   - first_limit 8MB: A drops at t = 8, B ends at 11 (JCT 6).
//   - first_limit 64MB: both stay in Q0: FIFO, A ends at 30, B at 33 (28).
//   - weighted (Q0 weight 10, Q1 9): until 10 as strict; then down0 is split
//     10/19 to B and 9/19 to A. B's 3MB take 5.7 s: JCT 10.7. down0 never
//     idles, so A ends when all 33MB are through: 33.
var aaloPair = pair("30MB", "3MB", "5s")

func TestAaloDemotesAtFirstLimit(t *testing.T) {
	for _, c := range []struct {
		params string
		a, b   float64
	}{
		{"{first_limit: 10MB}", 33, 8},
		{"{first_limit: 8MB}", 33, 6},
		{"{first_limit: 64MB}", 30, 28},
		{"{first_limit: 10MB, weighted: true}", 33, 10.7},
	} {
		sched := "{name: fair, network: aalo, network_params: " + c.params + "}"
		got, err := run(t, aaloPair+"scheduler: "+sched+"\n")
		if err != nil {
			t.Fatalf("%s: %v", sched, err)
		}
		checkJCTs(t, sched, got, map[string]float64{"A": c.a, "B": c.b})
	}
}

// A two-tier network whose rack uplink is the bottleneck: 2 racks of 2
// machines, NICs 1MB/s, oversubscription 2, so each rack link carries
// 2MB/s / 2 = 1MB/s. Job A's maps on machines 2 and 3 (rack 1) write 2MB
// each; its reducers on machines 0 and 1 (rack 0) each fetch 1MB from each
// map: four 1MB flows, all through r1.up (and r0.down).
//
// By NICs alone the bottleneck would be 2 s (machine 2's uplink carries
// 2MB), MADD rates 0.5MB/s and 2MB/s on r1.up: over its capacity. The rack
// link holds 4MB: Γ = 4 s, every flow at 0.25MB/s, r1.up exactly full. The
// job ends at 4 (check mode and the probe verify every link's load).
const rackBottleneck = `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 2, nic: 1MB/s}
network: {topology: two-tier, oversubscription: 2}
workload:
  jobs:
    - id: A
      arrival: 0s
      stages:
        - {id: map, tasks: [{compute: 0s, output: 2MB, pin: 2}, {compute: 0s, output: 2MB, pin: 3}]}
        - {id: reduce, after: map, tasks: [{compute: 0s, pin: 0}, {compute: 0s, pin: 1}]}
`

func TestVarysRespectsRackLink(t *testing.T) {
	probed = probeStats{}
	got, err := run(t, rackBottleneck+"scheduler: {name: fair, network: rate-probe, network_params: {policy: varys}}\n")
	if err != nil {
		t.Fatal(err)
	}
	checkJCTs(t, "varys", got, map[string]float64{"A": 4})
	if probed.calls == 0 || probed.worst > 1+1e-9 {
		t.Errorf("probe: %d calls, worst link load %v of capacity", probed.calls, probed.worst)
	}
	// MADD fills the bottleneck exactly: r1.up at its capacity.
	if !schedtest.Near(probed.worst, 1) {
		t.Errorf("worst link load %v of capacity, want 1 (the rack uplink full)", probed.worst)
	}
}

// Explicit coflow rates need fixed routes: a hybrid network is refused when
// the run starts.
func TestCoflowRatesRefuseHybrid(t *testing.T) {
	hybrid := strings.Replace(rackBottleneck, "topology: two-tier", "topology: hybrid", 1)
	for _, np := range []string{"varys", "aalo"} {
		_, err := run(t, hybrid+"scheduler: {name: fair, network: "+np+"}\n")
		if err == nil || !strings.Contains(err.Error(), "hybrid (OCS) network") || !strings.Contains(err.Error(), np) {
			t.Errorf("%s on a hybrid network: error %v", np, err)
		}
	}
	if _, err := run(t, hybrid+"scheduler: {name: fair, network: fifo}\n"); err != nil {
		t.Errorf("a priority-class policy on a hybrid network: %v", err)
	}
}

// Property: on random two-tier workloads, every rate a coflow policy sets
// keeps every link within its capacity, and every job finishes (check mode
// on).
func TestCoflowRatesWithinCapacity(t *testing.T) {
	policies := []string{
		"{policy: varys, order: sebf}", "{policy: varys, order: fifo}", "{policy: varys, order: scf}",
		"{policy: varys, order: ncf}", "{policy: varys, order: lcf}",
		"{policy: aalo, first_limit: 1MB, multiplier: 2}", "{policy: aalo, first_limit: 1MB, multiplier: 2, weighted: true}",
	}
	for seed := range uint64(30) {
		yaml := randomScenario(seed)
		for _, p := range policies {
			probed = probeStats{}
			got, err := run(t, yaml+"scheduler: {name: fair, network: rate-probe, network_params: "+p+"}\n")
			if err != nil {
				t.Fatalf("seed %d %s: %v\n%s", seed, p, err, yaml)
			}
			if probed.calls == 0 || probed.worst > 1+1e-9 {
				t.Fatalf("seed %d %s: %d calls, a link loaded to %v of its capacity", seed, p, probed.calls, probed.worst)
			}
			if len(got) == 0 {
				t.Fatalf("seed %d %s: no jobs", seed, p)
			}
		}
	}
}

// randomScenario is a few overlapping MapReduce jobs on 2-3 racks with an
// oversubscribed core and mixed NIC speeds.
func randomScenario(seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 9))
	racks, per := 2+rng.IntN(2), 2+rng.IntN(2)
	n := racks * per
	var b strings.Builder
	fmt.Fprintf(&b, "cluster:\n  racks: %d\n  machines_per_rack: %d\n  slots_per_machine: 3\n  nic: 1MB/s\n", racks, per)
	fmt.Fprintf(&b, "  machines: [{index: %d, nic: 2MB/s}]\n", rng.IntN(n))
	fmt.Fprintf(&b, "network: {topology: two-tier, oversubscription: %d}\n", 1+rng.IntN(3))
	b.WriteString("workload:\n  jobs:\n")
	for j := range 3 + rng.IntN(3) {
		fmt.Fprintf(&b, "    - id: j%d\n      arrival: %ds\n      stages:\n", j, rng.IntN(4))
		var maps, reds []string
		for range 1 + rng.IntN(3) {
			maps = append(maps, fmt.Sprintf("{compute: %ds, output: %dMB, pin: %d}", rng.IntN(2), 1+rng.IntN(4), rng.IntN(n)))
		}
		for range 1 + rng.IntN(3) {
			reds = append(reds, fmt.Sprintf("{compute: 0s, pin: %d}", rng.IntN(n)))
		}
		fmt.Fprintf(&b, "        - {id: map, tasks: [%s]}\n", strings.Join(maps, ", "))
		fmt.Fprintf(&b, "        - {id: reduce, after: map, tasks: [%s]}\n", strings.Join(reds, ", "))
	}
	return b.String()
}

// probeStats is what the rate-probe policy saw: calls, and the highest
// load of any link relative to its capacity right after a call.
type probeStats struct {
	calls int
	worst float64
}

var probed probeStats

// probe wraps a coflow policy and sums, after every call, the rates it set
// on each link.
type probe struct{ *netpolicy.Coflows }

func (p probe) CoflowRates(v sched.View, links []float64, cs []sched.Coflow) (float64, error) {
	next, err := p.Coflows.CoflowRates(v, links, cs)
	load := make([]float64, len(links))
	for _, c := range cs {
		for _, f := range c.Flows {
			for _, l := range f.Links {
				load[l] += f.Rate
			}
		}
	}
	probed.calls++
	for l, x := range load {
		probed.worst = max(probed.worst, x/links[l])
	}
	return next, err
}

func init() {
	type config struct {
		Policy     string  `param:"policy" choices:"varys|aalo" help:"the policy probed"`
		Order      string  `param:"order" help:"varys order"`
		FirstLimit float64 `param:"first_limit" unit:"B" help:"aalo"`
		Multiplier float64 `param:"multiplier" help:"aalo"`
		Weighted   bool    `param:"weighted" help:"aalo"`
	}
	sched.RegisterNetwork(sched.DefineNetwork("rate-probe", "a coflow policy whose rates are summed per link (tests only)",
		config{Policy: "varys"}, func(c config) (sched.NetworkPolicy, error) {
			params := map[string]any{}
			if c.Policy == "varys" && c.Order != "" {
				params["order"] = c.Order
			}
			if c.Policy == "aalo" {
				params["weighted"] = c.Weighted
				if c.FirstLimit > 0 {
					params["first_limit"] = c.FirstLimit
				}
				if c.Multiplier > 0 {
					params["multiplier"] = c.Multiplier
				}
			}
			np, err := sched.NewNetworkPolicy(c.Policy, params)
			if err != nil {
				return nil, err
			}
			return probe{np.(*netpolicy.Coflows)}, nil
		}))
}
