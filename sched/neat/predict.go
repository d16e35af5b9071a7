package neat

import "fmt"

// Predictor names a single-link completion-time model (baselines.md §6's
// table): how the link shares its capacity between the flows on it.
type Predictor int8

const (
	Fair Predictor = iota // processor sharing: max-min fair within one class
	FCFS                  // first come, first served
	SRPT                  // shortest remaining processing time first
	LAS                   // least attained service first
)

func (p Predictor) String() string { return [...]string{"fair", "fcfs", "srpt", "las"}[p] }

// ParsePredictor reads a predictor name (not "auto").
func ParsePredictor(s string) (Predictor, error) {
	for p := Fair; p <= LAS; p++ {
		if p.String() == s {
			return p, nil
		}
	}
	return Fair, fmt.Errorf("unknown predictor %q (fair, fcfs, srpt or las)", s)
}

// ForPolicy is the predictor that matches a scenario's network policy
// (`scheduler.network` and its parameters): none or fair → Fair; fifo
// (strict priority by job arrival) → FCFS; scf (smallest coflow first) →
// SRPT; varys → SRPT, or FCFS with order fifo; aalo (least attained
// service per coflow) → LAS. A policy this package does not know is
// predicted as Fair.
func ForPolicy(policy string, params map[string]any) Predictor {
	switch policy {
	case "fifo":
		return FCFS
	case "scf":
		return SRPT
	case "varys":
		if o, _ := params["order"].(string); o == "fifo" {
			return FCFS
		}
		return SRPT
	case "aalo":
		return LAS
	}
	return Fair
}

// LinkFlow is a flow already on a link: its remaining bytes r_i and the
// bytes it received so far, its attained service a_i.
type LinkFlow struct {
	Remaining float64
	Attained  float64
}

// Predict is §6's single-link predictor: a new flow of s bytes joins the
// flows on a link of capacity c (bytes/s); ignoring later arrivals, it
// returns the new flow's predicted completion time and the sum of the extra
// delays it imposes on the flows already there, both in seconds.
//
//	FCFS  completion (Σ r_i + s)/C                        delay 0
//	Fair  completion (s + Σ min(r_i, s))/C                delay Σ min(r_i, s)/C
//	LAS   completion (s + Σ max(0, min(a_i+r_i, s) − a_i))/C
//	      delay Σ min(s, a_i + r_i)/C
//	SRPT  completion (s + Σ_{r_i ≤ s} r_i)/C              delay s/C per flow with r_i > s
//
// LAS's delay is our derivation of the table's "up to min(s, its remaining
// service at or above level a_i)": the new flow starts at attained service
// 0, so it is served alone up to level a_i and shares the link with flow i
// from there until flow i ends at level a_i + r_i; all of the new flow's
// service below that level comes before flow i finishes.
func Predict(p Predictor, flows []LinkFlow, s, c float64) (completion, delay float64) {
	if s <= 0 {
		return 0, 0
	}
	ahead := 0.0 // bytes of other flows served before the new flow ends
	switch p {
	case FCFS:
		for _, f := range flows {
			ahead += f.Remaining
		}
	case Fair:
		for _, f := range flows {
			ahead += min(f.Remaining, s)
		}
	case LAS:
		for _, f := range flows {
			ahead += max(0, min(f.Attained+f.Remaining, s)-f.Attained)
		}
	case SRPT:
		for _, f := range flows {
			if f.Remaining <= s {
				ahead += f.Remaining
			}
		}
	}
	for _, f := range flows {
		delay += Delay(p, f, s, c)
	}
	return (s + ahead) / c, delay
}

// Delay is the extra delay, in seconds, a new flow of s bytes imposes on
// flow f of a link of capacity c (the per-flow terms of Predict's delay).
func Delay(p Predictor, f LinkFlow, s, c float64) float64 {
	if s <= 0 {
		return 0
	}
	switch p {
	case Fair:
		return min(f.Remaining, s) / c
	case LAS:
		return min(s, f.Attained+f.Remaining) / c
	case SRPT:
		if f.Remaining > s {
			return s / c
		}
	}
	return 0
}
