package neat

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// §6's table on a link of 100 B/s carrying three flows (remaining r,
// attained a): (100, 50), (300, 0), (100, 500); the new flow has 200 B.
//
//	FCFS: (100+300+100 + 200)/100 = 7;                 delay 0
//	Fair: (200 + 100+200+100)/100 = 6;                 delay (100+200+100)/100 = 4
//	LAS:  (200 + (150-50) + (200-0) + max(0, 200-500))/100 = 5;
//	      delay (min(200,150) + min(200,300) + min(200,600))/100 = 5.5
//	SRPT: (200 + 100 + 100)/100 = 4;                   delay 200/100 for the 300 B flow = 2
func TestPredictTable(t *testing.T) {
	flows := []LinkFlow{{Remaining: 100, Attained: 50}, {Remaining: 300}, {Remaining: 100, Attained: 500}}
	for _, c := range []struct {
		p           Predictor
		comp, delay float64
	}{
		{FCFS, 7, 0},
		{Fair, 6, 4},
		{LAS, 5, 5.5},
		{SRPT, 4, 2},
	} {
		comp, delay := Predict(c.p, flows, 200, 100)
		if !near(comp, c.comp) || !near(delay, c.delay) {
			t.Errorf("%v: completion %v, delay %v; want %v, %v", c.p, comp, delay, c.comp, c.delay)
		}
	}
}

// An idle link: every model predicts s/C and no delay; an empty flow costs
// nothing.
func TestPredictIdleLink(t *testing.T) {
	for p := Fair; p <= LAS; p++ {
		if comp, delay := Predict(p, nil, 250, 100); !near(comp, 2.5) || delay != 0 {
			t.Errorf("%v on an idle link: %v, %v; want 2.5, 0", p, comp, delay)
		}
		if comp, delay := Predict(p, []LinkFlow{{Remaining: 10}}, 0, 100); comp != 0 || delay != 0 {
			t.Errorf("%v with s = 0: %v, %v; want 0, 0", p, comp, delay)
		}
	}
}

// Boundary cases of each formula: SRPT counts a flow of exactly s as
// ahead (r_i <= s); LAS serves a flow whose attained service is at or
// above s after the new flow (nothing ahead, delayed by s); Fair caps each
// flow's share at s.
func TestPredictBoundaries(t *testing.T) {
	// SRPT: r = 50 (ahead), r = 50.5 (behind): (50 + 50)/10 = 10, delay 50/10 = 5.
	if comp, delay := Predict(SRPT, []LinkFlow{{Remaining: 50}, {Remaining: 50.5}}, 50, 10); !near(comp, 10) || !near(delay, 5) {
		t.Errorf("srpt: %v, %v; want 10, 5", comp, delay)
	}
	// LAS: a = 80 >= s = 80: nothing ahead (80/10 = 8), delay 80/10 = 8.
	// A flow with a = 20, r = 30 ends at level 50 < 80: all 30 ahead, and
	// it is delayed by the 50 B the new flow gets below level 50.
	if comp, delay := Predict(LAS, []LinkFlow{{Remaining: 1000, Attained: 80}}, 80, 10); !near(comp, 8) || !near(delay, 8) {
		t.Errorf("las, attained above s: %v, %v; want 8, 8", comp, delay)
	}
	if comp, delay := Predict(LAS, []LinkFlow{{Remaining: 30, Attained: 20}}, 80, 10); !near(comp, 11) || !near(delay, 5) {
		t.Errorf("las, short flow: %v, %v; want 11, 5", comp, delay)
	}
	// Fair: a 1000 B flow and a 10 B flow, s = 40: (40 + 40 + 10)/10 = 9, delay 5.
	if comp, delay := Predict(Fair, []LinkFlow{{Remaining: 1000}, {Remaining: 10}}, 40, 10); !near(comp, 9) || !near(delay, 5) {
		t.Errorf("fair: %v, %v; want 9, 5", comp, delay)
	}
	// FCFS: everything ahead, nobody delayed.
	if comp, delay := Predict(FCFS, []LinkFlow{{Remaining: 1000}, {Remaining: 10}}, 40, 10); !near(comp, 105) || delay != 0 {
		t.Errorf("fcfs: %v, %v; want 105, 0", comp, delay)
	}
}

func TestForPolicy(t *testing.T) {
	for _, c := range []struct {
		policy string
		params map[string]any
		want   Predictor
	}{
		{"", nil, Fair},
		{"fair", nil, Fair},
		{"fifo", nil, FCFS},
		{"scf", map[string]any{"first": "10MB"}, SRPT},
		{"varys", nil, SRPT},
		{"varys", map[string]any{"order": "sebf"}, SRPT},
		{"varys", map[string]any{"order": "fifo"}, FCFS},
		{"aalo", nil, LAS},
		{"something-new", nil, Fair},
	} {
		if got := ForPolicy(c.policy, c.params); got != c.want {
			t.Errorf("ForPolicy(%q, %v) = %v, want %v", c.policy, c.params, got, c.want)
		}
	}
	for p := Fair; p <= LAS; p++ {
		if q, err := ParsePredictor(p.String()); err != nil || q != p {
			t.Errorf("ParsePredictor(%q) = %v, %v", p, q, err)
		}
	}
	if _, err := ParsePredictor("auto"); err == nil {
		t.Error("ParsePredictor(auto) accepted")
	}
}
