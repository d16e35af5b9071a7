package pushbox

import (
	"math"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
)

// rateProbe records machine 0's effective rate after each scheduling call.
type rateProbe struct {
	*Scheduler
	at map[float64]float64
}

func (p *rateProbe) Schedule(v sched.View, o sched.Opportunity, plan *sched.Plan) {
	p.Scheduler.Schedule(v, o, plan)
	p.at[v.Now()] = p.mach[0].rate
}

// Peña's rate (§4): machine 0 has a 2 MB/s NIC, so its rate starts at
// 2 MB/s, but its reducer fetches 20 MB from machine 1, whose NIC is
// 1 MB/s: the measured rate is 1 MB/s over [0,20]. Machine 2 runs ten 1 s
// tasks one after the other, so PushBox is called every second while
// tasks wait (up to 9). The reducer starts in the call at 0 (nothing
// measured yet); the call at 1 measures 1 MB/s; each later call folds the
// previous second in with weight 1 - e^(-1/5). So at t (1 <= t <= 9) the
// rate is 1 + e^(-(t-1)/5) MB/s: 2 at 1, 1.4493 at 5, 1.2019 at 9.
// Locality delay is off so that no heartbeat adds calls between those.
func TestEffectiveRateEMA(t *testing.T) {
	sc, err := scenario.Parse("rate.yaml", []byte(`
cluster:
  racks: 1
  machines_per_rack: 3
  slots_per_machine: 1
  nic: 1MB/s
  machines: [{index: 0, nic: 2MB/s}]
workload:
  jobs:
    - id: A
      stages:
        - {id: map, tasks: [{output: 20MB, pin: 1}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 0}]}
    - id: T
      stages: [{id: s, tasks: [{compute: 1s, pin: 2}, {compute: 1s, pin: 2}, {compute: 1s, pin: 2}, {compute: 1s, pin: 2}, {compute: 1s, pin: 2}, {compute: 1s, pin: 2}, {compute: 1s, pin: 2}, {compute: 1s, pin: 2}, {compute: 1s, pin: 2}, {compute: 1s, pin: 2}]}]
scheduler: pushbox
`), ".")
	if err != nil {
		t.Fatal(err)
	}
	sc.Check = true
	cfg := DefaultConfig()
	cfg.LocalityDelay = 0
	p := &rateProbe{Scheduler: New(cfg), at: map[float64]float64{}}
	if _, err := sim.RunWith(sc, p); err != nil {
		t.Fatal(err)
	}
	for _, at := range []float64{1, 5, 9} {
		want := 1e6 * (1 + math.Exp(-(at-1)/5))
		if got, ok := p.at[at]; !ok || math.Abs(got-want) > 1e-6*want {
			t.Errorf("rate at %gs = %v (recorded: %v), want %v", at, got, ok, want)
		}
	}
}

// rack_local: auto follows the network: on only when cross-rack capacity is
// below the NICs' (§4, "for large oversubscribed networks").
func TestRackLocalAuto(t *testing.T) {
	for _, c := range []struct {
		network string
		want    bool
	}{
		{"{topology: nonblocking}", false},
		{"{topology: two-tier}", false},
		{"{topology: two-tier, oversubscription: 2}", true},
		{"{topology: two-tier, rack_uplink: 2Gbps, rack_downlink: 2Gbps}", false},
		{"{topology: two-tier, rack_uplink: 1Gbps, rack_downlink: 2Gbps}", true},
	} {
		sc, err := scenario.Parse("auto.yaml", []byte(`
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbps}
network: `+c.network+`
workload: {jobs: [{id: A, stages: [{id: s, tasks: [{compute: 1s}]}]}]}
scheduler: pushbox
`), ".")
		if err != nil {
			t.Fatal(err)
		}
		s := New(DefaultConfig())
		if _, err := sim.RunWith(sc, s); err != nil {
			t.Fatal(err)
		}
		if s.rackLocal != c.want {
			t.Errorf("%s: rack-local counts as local = %v, want %v", c.network, s.rackLocal, c.want)
		}
	}
}
