package sim_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sim"
)

// randomRaterScenario draws a small cluster, network, task scheduler and
// rate-setting network policy, and MapReduce jobs whose shuffles overlap.
func randomRaterScenario(t *testing.T, seed uint64) *scenario.Scenario {
	rng := rand.New(rand.NewPCG(seed, 2121))
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	var w strings.Builder
	racks, per := 1+rng.IntN(4), 2+rng.IntN(6)
	fmt.Fprintf(&w, "cluster: {racks: %d, machines_per_rack: %d, slots_per_machine: %d, nic: %s}\n", racks, per, 1+rng.IntN(4), pick("100Mbps", "1Gbps"))
	if racks > 1 && rng.IntN(3) > 0 {
		fmt.Fprintf(&w, "network: {topology: two-tier, oversubscription: %d}\n", 1+rng.IntN(5))
	}
	fmt.Fprintf(&w, "scheduler: {name: %s, network: %s}\n", pick("fair", "fifo", "pushbox", "delay"), pick(
		"varys", "'varys, network_params: {order: fifo}'", "'varys, network_params: {order: scf}'",
		"'varys, network_params: {order: ncf}'", "'varys, network_params: {order: lcf}'",
		"aalo", "'aalo, network_params: {queues: 3, first_limit: 1MB, multiplier: 4}'",
		"'aalo, network_params: {queues: 4, first_limit: 2MB, multiplier: 2, weighted: true}'"))
	w.WriteString("output: {tasks: true}\nworkload:\n  jobs:\n")
	jobs := 5 + rng.IntN(40)
	for i := range jobs {
		after := "m"
		if rng.IntN(2) == 0 {
			after = fmt.Sprintf("[{stage: m, slowstart: %.2f}]", rng.Float64())
		}
		fmt.Fprintf(&w, "    - {id: j%d, user: u%d, arrival: %.4fs, stages: [{id: m, count: %d, compute: {dist: uniform, min: 0.1s, max: 3s}, output: {dist: uniform, min: 0.1MB, max: %dMB}}, {id: r, after: %s, count: %d, compute: 0.5s}]}\n",
			i, rng.IntN(3), rng.Float64()*float64(jobs)/4, 1+rng.IntN(12), 1+rng.IntN(40), after, 1+rng.IntN(6))
	}
	sc, err := scenario.Parse("rater.yaml", []byte(strings.ReplaceAll(w.String(), "'", "")), ".")
	if err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, w.String())
	}
	return sc
}

// TestRaterMatchesReference runs randomised scenarios twice: with every
// update's policy input (and the rate each flow is believed pinned to)
// compared with the reference's, the former rater that rebuilt it from
// scratch; and with the reference's input driving the rates. The output
// files of the two runs must be identical byte for byte.
func TestRaterMatchesReference(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 15
	}
	total := 0
	for seed := range uint64(n) {
		sc := randomRaterScenario(t, seed)
		restore := sim.SetRaterReference(false)
		got, err := sim.Run(sc)
		diff, updates := restore()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if diff != nil {
			t.Fatalf("seed %d (%s): update %v", seed, sc.Scheduler.Name, diff)
		}
		total += updates
		restore = sim.SetRaterReference(true)
		want, err := sim.Run(sc)
		restore()
		if err != nil {
			t.Fatalf("seed %d: reference: %v", seed, err)
		}
		if err := sameFiles(got, want); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	if total < 100*n {
		t.Fatalf("only %d updates checked over %d scenarios", total, n)
	}
	t.Logf("%d scenarios, %d updates checked", n, total)
}

// sameFiles compares two runs' output files, timing.json (wall time) left
// out.
func sameFiles(got, want *metrics.Result) error {
	got.Timing, want.Timing = metrics.Timing{}, metrics.Timing{}
	gf, err := got.Files()
	if err != nil {
		return err
	}
	wf, err := want.Files()
	if err != nil {
		return err
	}
	if len(gf) != len(wf) {
		return fmt.Errorf("%d files, want %d", len(gf), len(wf))
	}
	for i := range gf {
		if gf[i].Name != wf[i].Name || !bytes.Equal(gf[i].Bytes(), wf[i].Bytes()) {
			return fmt.Errorf("%s differs from the reference run's", gf[i].Name)
		}
	}
	return nil
}
