package dawn

import (
	"math"

	"github.com/netsched/netsched/sched"
)

// Config holds Dawn's parameters. The defaults are the paper's where it
// gives one (b = 0, §3.3.2); the others keep the algorithms as written and
// are there for the ablations and guards of docs/reproductions/dawn.md.
type Config struct {
	// Balancing runs Algorithm 3; Balance is its factor b.
	Balancing bool    `param:"balancing" help:"online plan balancing (Alg. 3); false keeps every job on its planned racks (an ablation)"`
	Balance   float64 `param:"balance" min:"0" max:"1" help:"balancing factor b (Alg. 3): rack i joins a hotspot job's preferred racks when no job prefers it, or fewer than b x the hotspot's jobs do (0: only when none does, §3.3.2)"`
	// Dependency turns dep_reduce (eqs. 5-7) on; off, a final stage
	// prefers max_reduce alone: every job placed for itself.
	Dependency bool `param:"dependency" help:"dependency-aware final stages (dep_reduce, eqs. 5-7); false: max_reduce only, a per-job placement (the Fig. 9(b) ablation)"`
	// Order is how Algorithm 1 ranks jobs: by the monitor's saturation
	// verdict (the paper), or always as saturated / unsaturated (ablations).
	Order string `param:"order" choices:"adaptive|least-traffic|most-traffic" help:"job order of Alg. 1: adaptive (least traffic first while the monitor says saturated, most otherwise), or always one of the two (ablations)"`
	// RackChoice says which preferred racks may take a task: any of them
	// (§3.3.3: "we choose the first job whose preferred racks contain the
	// rack i"), or only the one Alg. 1 selects for the job (least traffic
	// while saturated, most otherwise: a reading of the pseudocode's "while
	// the preferred rack is not rack i").
	RackChoice string `param:"rack_choice" choices:"selected|any" help:"which preferred racks of a job may take a container: any (§3.3.3), or only the one Alg. 1 selects (selected: least traffic while saturated, most otherwise)"`
	// AssignMultiple fills every free container of a rack at its
	// heartbeat; off, one container per machine (YARN's assignmultiple).
	AssignMultiple bool `param:"assign_multiple" help:"fill every free container of the rack at each heartbeat (false: one per machine, YARN's assignmultiple=false)"`
	// StarveAfter is the starvation guard (§3.4): a stage whose last
	// container is older than this goes first on its preferred racks.
	StarveAfter float64 `param:"starve_after" unit:"s" min:"0" help:"starvation guard: a stage that got no container for this long goes first on its preferred racks (0: off; §3.4 relies on saturated and unsaturated periods alternating)"`
	// FairUsers is user-level fairness (§3.4): opportunities go to users
	// with the fewest running tasks first, Alg. 1 among that user's jobs.
	FairUsers bool `param:"fair_users" help:"user-level fairness (§3.4): each container goes to the user with the fewest running tasks that has a job for it, Alg. 1 among its jobs"`
}

// DefaultConfig is Dawn as evaluated in §6.
func DefaultConfig() Config {
	return Config{Balancing: true, Dependency: true, Order: "adaptive", RackChoice: "any"}
}

// Validate checks what the tags cannot.
func (c *Config) Validate() error {
	if math.IsInf(c.StarveAfter, 0) {
		return sched.BadParam("starve_after", c.StarveAfter, "a finite duration >= 0")
	}
	return nil
}
