package nas

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// TrafficThreshold is eq. 3, the shuffle budget of a node with m containers
// when the jobs in the cluster have shuffle sizes S_i and K_i maps:
// m·ΣS_i / ΣK_i, the mean shuffle one node produces per wave of maps.
// With no maps in the cluster there is nothing to balance: +Inf.
func TrafficThreshold(m int, shuffle []float64, maps []int) float64 {
	s, k := 0.0, 0
	for i := range shuffle {
		s += shuffle[i]
		k += maps[i]
	}
	if k == 0 {
		return math.Inf(1)
	}
	return float64(m) * s / float64(k)
}

// recompute refreshes the per-container threshold ΣS_i/ΣK_i over the jobs
// in the cluster (a node's budget is its containers times this).
func (s *Scheduler) recompute() {
	sum, k := 0.0, 0
	for _, j := range s.jobs {
		if j == nil {
			continue
		}
		sum += j.shuffle
		k += j.est.Maps
	}
	s.perSlot = math.Inf(1)
	if k > 0 {
		s.perSlot = sum / float64(k)
	}
	s.thresholdSet = true
}

// budget is machine m's TrafficThreshold (eq. 3 with its own containers).
func (s *Scheduler) budget(v sched.View, m int) float64 {
	if !s.cfg.TrafficThreshold {
		return math.Inf(1)
	}
	return float64(v.Machine(m).Slots()) * s.perSlot
}

// available is the map output machine m may still take: its budget minus
// the predicted output of the maps running there.
func (s *Scheduler) available(v sched.View, m int) float64 {
	return s.budget(v, m) - s.nodeOut[m]
}

// TickInterval makes the engine call Tick periodically.
func (s *Scheduler) TickInterval() float64 { return s.cfg.ThresholdInterval }

// Tick recomputes TrafficThreshold ("updated periodically", §III-C) and
// samples how many nodes are over it (Fig. 3e).
func (s *Scheduler) Tick(v sched.View) { s.Ticks(v, 1) }

// Ticks is n ticks with nothing in between: the threshold is recomputed once
// (it depends only on the jobs in the cluster) and the sample counters add n
// equal samples (OverThresholdSum by one product, not n sums).
func (s *Scheduler) Ticks(v sched.View, n int) {
	s.recompute()
	if s.live == 0 {
		return
	}
	over := 0
	for m := range s.nodeOut {
		if s.nodeOut[m] > float64(v.Machine(m).Slots())*s.perSlot {
			over++
		}
	}
	s.stats.Samples += n
	if s.hold {
		s.stats.HoldTicks += n
	}
	s.stats.OverThresholdSum += float64(n) * (float64(over) / float64(len(s.nodeOut)))
	if s.sample != nil && v.Now() >= s.nextSample {
		st := s.stats
		st.Jobs = nil
		s.sample(v, st)
		for s.nextSample <= v.Now() {
			s.nextSample += s.sampleEvery
		}
	}
}

// SampleEvery makes the scheduler call f with the view and its counters so
// far (without the per-job ones) at its first tick at or after every
// multiple of every seconds while jobs are active: counters over time, for
// cmd/nasstats.
func (s *Scheduler) SampleEvery(every float64, f func(v sched.View, st Stats)) {
	if !(every > 0) || math.IsInf(every, 1) {
		f = nil // no period: no samples
	}
	s.sample, s.sampleEvery, s.nextSample = f, every, every
}

// Running is the containers NAS's tasks hold now: by maps, and by early
// reducers (reducers of jobs with maps waiting, which the ramp-up limit
// caps: reduce_rampup).
func (s *Scheduler) Running() (maps, early int) { return s.total.RunMaps, s.rampup.Early() }
