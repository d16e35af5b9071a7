package sched

// Plan collects the decisions of one call into a scheduler. Each entry is
// validated as it is made and reserved at once, so the View of the same call
// already reflects it (a placed task is no longer waiting, its slot no longer
// free); the engine carries the entries out when the call returns, in the
// order they were made. An invalid entry fails the run with an error naming
// the scheduler, the decision and the reason, and is returned so the
// scheduler can stop deciding.
type Plan struct {
	b      Backend
	placed int
}

// Backend carries a plan's entries into the engine; implemented by the
// engine (package sim), never by schedulers.
type Backend interface {
	PlanPlace(t Task, m int) error
	PlanSetClass(t Task, class int) error
	PlanRelease(t Task, machine int) error
	PlanReleaseRack(t Task, rack int) error
	PlanReleaseTogether(ts []Task, rack int) error
}

// NewPlan is for the engine: a plan whose entries go to b.
func NewPlan(b Backend) *Plan { return &Plan{b: b} }

// Reset empties the plan's counters for the next call (the engine reuses one).
func (p *Plan) Reset() { p.placed = 0 }

// Placed is the number of tasks this plan placed.
func (p *Plan) Placed() int { return p.placed }

// Place starts waiting task t on machine m, which must have a free slot
// (this plan's earlier placements deducted) and be the task's pin if it has
// one.
func (p *Plan) Place(t Task, m int) error {
	if err := p.b.PlanPlace(t, m); err != nil {
		return err
	}
	p.placed++
	return nil
}

// SetClass changes the network priority class (lower is served first) of
// task t, and so of its flows in flight and of those it starts later. Each
// flow's class is derived as when it started: through the scheduler's
// FlowClass when it has one.
func (p *Plan) SetClass(t Task, class int) error { return p.b.PlanSetClass(t, class) }

// ReleaseFetch releases the held transfer of gated task t from machine m
// (FetchGater).
func (p *Plan) ReleaseFetch(t Task, m int) error { return p.b.PlanRelease(t, m) }

// ReleaseRack releases every held transfer of gated task t from rack r
// together (FetchGater: a reducer's shuffle aggregated per source rack).
func (p *Plan) ReleaseRack(t Task, r int) error { return p.b.PlanReleaseRack(t, r) }

// ReleaseRackTogether releases every held transfer from rack r of all the
// gated tasks ts (a job's reducers, say) as one aggregated transfer: each
// flow is marked with the group's total bytes, and on a hybrid network the
// group may take an optical circuit when that total reaches the elephant
// threshold (JobPacker §4.2), though each flow alone is small. Every task
// must hold something from r; otherwise nothing is released.
func (p *Plan) ReleaseRackTogether(ts []Task, r int) error { return p.b.PlanReleaseTogether(ts, r) }
