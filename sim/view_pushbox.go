package sim

import "github.com/netsched/netsched/network"

// Read-only View additions for PushBox (sched/pushbox). Peña (§4) measures
// each machine's receive rate itself and treats rack-local sources as local
// in oversubscribed networks; these expose exactly what it needs and
// nothing that changes the run.

// ReceiveRateNow is the exact current rate, in bytes/s, at which machine m
// receives input over the network: the sum of the current rates of the
// flows into the tasks running there. Node-local reads are not included.
func (v *View) ReceiveRateNow(m int) float64 {
	if m < 0 || m >= len(v.e.machines) {
		return 0
	}
	sum := 0.0
	for _, t := range v.e.machines[m].Running {
		if t.State != InInput {
			continue
		}
		for _, rec := range v.e.flowsOf(t) {
			sum += v.e.net.Rate(rec.id)
		}
	}
	return sum
}

// Oversubscribed reports whether cross-rack traffic has less capacity than
// the machines' NICs: a two-tier or hybrid network with an oversubscription
// ratio above 1, or a rack link slower than the sum of its rack's NICs.
func (v *View) Oversubscribed() bool {
	cfg := v.e.sc.Network
	if cfg.Kind == "" || cfg.Kind == network.NonBlocking {
		return false
	}
	if cfg.RackUp == 0 && cfg.RackDown == 0 {
		return cfg.Oversubscription > 1
	}
	nic := make([]float64, v.e.sc.Racks)
	for _, m := range v.e.machines {
		if m.Rack < len(nic) {
			nic[m.Rack] += m.NIC
		}
	}
	for _, sum := range nic {
		if cfg.RackUp > 0 && cfg.RackUp < sum || cfg.RackDown > 0 && cfg.RackDown < sum {
			return true
		}
	}
	return false
}

// Checking reports whether the run asserts invariants (scenario
// `engine: {check: true}`), so a scheduler can assert its own as well.
func (v *View) Checking() bool { return v.e.check }
