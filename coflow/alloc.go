package coflow

// allocator computes explicit flow rates against the free bandwidth of every
// port's uplink (sender side) and downlink (receiver side). All ports have
// the same speed. Rates are written to flowState.next; the replay applies
// the ones that changed.
type allocator struct {
	speed    float64
	tiny     float64   // free bandwidth below this counts as none
	up, down []float64 // free bandwidth per port

	// Per-port scratch for one coflow, reset through touched lists.
	upBytes, downBytes []float64
	upN, downN         []int
	upTouched          []int
	downTouched        []int
}

func newAllocator(ports int, speed float64) *allocator {
	return &allocator{
		speed: speed, tiny: speed * 1e-12,
		up: make([]float64, ports), down: make([]float64, ports),
		upBytes: make([]float64, ports), downBytes: make([]float64, ports),
		upN: make([]int, ports), downN: make([]int, ports),
	}
}

// reset frees every port and zeroes every active flow's next rate.
func (a *allocator) reset(active []*coflowState) {
	for i := range a.up {
		a.up[i], a.down[i] = a.speed, a.speed
	}
	for _, c := range active {
		for i := range c.flows {
			c.flows[i].next = 0
		}
	}
}

// give adds r to flow f and takes it from both its ports. r never exceeds
// either port's free bandwidth, so free bandwidth never goes negative.
func (a *allocator) give(f *flowState, r float64) {
	r = min(r, a.up[f.src], a.down[f.dst])
	if r <= 0 {
		return
	}
	f.next += r
	a.up[f.src] -= r
	a.down[f.dst] -= r
}

// portLoads accumulates c's remaining bytes and unfinished flow counts per
// port into the scratch arrays.
func (a *allocator) portLoads(c *coflowState) {
	a.clearLoads()
	for i := range c.flows {
		f := &c.flows[i]
		if f.done {
			continue
		}
		if a.upN[f.src] == 0 {
			a.upTouched = append(a.upTouched, f.src)
		}
		if a.downN[f.dst] == 0 {
			a.downTouched = append(a.downTouched, f.dst)
		}
		a.upN[f.src]++
		a.downN[f.dst]++
		a.upBytes[f.src] += f.rem
		a.downBytes[f.dst] += f.rem
	}
}

func (a *allocator) clearLoads() {
	for _, p := range a.upTouched {
		a.upBytes[p], a.upN[p] = 0, 0
	}
	for _, p := range a.downTouched {
		a.downBytes[p], a.downN[p] = 0, 0
	}
	a.upTouched, a.downTouched = a.upTouched[:0], a.downTouched[:0]
}

// bottleneck is Γ: the time c needs to finish its remaining bytes through
// its busiest port against the bandwidth in free (up/down). ok is false when
// c needs a port that has no free bandwidth left (CoflowSim then skips c).
// Call after portLoads.
func (a *allocator) bottleneck(up, down []float64) (gamma float64, ok bool) {
	for _, p := range a.upTouched {
		if a.upBytes[p] <= 0 {
			continue
		}
		if up[p] <= a.tiny {
			return 0, false
		}
		gamma = max(gamma, a.upBytes[p]/up[p])
	}
	for _, p := range a.downTouched {
		if a.downBytes[p] <= 0 {
			continue
		}
		if down[p] <= a.tiny {
			return 0, false
		}
		gamma = max(gamma, a.downBytes[p]/down[p])
	}
	return gamma, gamma > 0
}

// madd is Varys's Minimum Allocation for Desired Duration: every unfinished
// flow of c gets rem/Γ, so that all of them finish together at Γ, where Γ is
// c's bottleneck against the bandwidth earlier coflows left.
func (a *allocator) madd(c *coflowState) {
	a.portLoads(c)
	gamma, ok := a.bottleneck(a.up, a.down)
	if !ok {
		return
	}
	for i := range c.flows {
		if f := &c.flows[i]; !f.done {
			a.give(f, f.rem/gamma)
		}
	}
}

// backfill is the work-conserving pass: in the given order, every unfinished
// flow adds whatever its two ports still have free.
func (a *allocator) backfill(order []*coflowState) {
	for _, c := range order {
		for i := range c.flows {
			f := &c.flows[i]
			if f.done || a.up[f.src] <= a.tiny || a.down[f.dst] <= a.tiny {
				continue
			}
			a.give(f, min(a.up[f.src], a.down[f.dst]))
		}
	}
}

// split is CoflowSim's per-coflow rule for Aalo: every unfinished flow gets
// min(budget_src/n_src, budget_dst/n_dst), n counting c's own unfinished
// flows at that port. The budgets are the ports' free bandwidth, or in
// weighted mode the share of c's queue (budUp/budDown, nil otherwise). The
// allocation is then taken from the free bandwidth and from the budgets.
func (a *allocator) split(c *coflowState, budUp, budDown []float64) {
	up, down := a.up, a.down
	if budUp != nil {
		up, down = budUp, budDown
	}
	a.portLoads(c)
	for i := range c.flows {
		f := &c.flows[i]
		if f.done {
			continue
		}
		r := min(up[f.src]/float64(a.upN[f.src]), down[f.dst]/float64(a.downN[f.dst]))
		if r > a.tiny {
			f.next = r
		}
	}
	for i := range c.flows {
		f := &c.flows[i]
		if f.done || f.next <= 0 {
			continue
		}
		// max(0, ...) absorbs the rounding of n shares of x/n.
		a.up[f.src] = max(0, a.up[f.src]-f.next)
		a.down[f.dst] = max(0, a.down[f.dst]-f.next)
		if budUp != nil {
			budUp[f.src] = max(0, budUp[f.src]-f.next)
			budDown[f.dst] = max(0, budDown[f.dst]-f.next)
		}
	}
}
