package workload

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func job(stages ...Stage) *Job { return &Job{ID: "j", Stages: stages} }

func TestValidateRejects(t *testing.T) {
	one := []Task{{Share: 1, Pin: NoPin}}
	two := []Task{{Share: 1, Pin: NoPin}, {Share: 1, Pin: NoPin}}
	zero := []Task{{Pin: NoPin}, {Pin: NoPin}}
	for _, c := range []struct {
		name string
		j    *Job
		want string
	}{
		{"no stages", job(), "at least one stage"},
		{"unknown stage", job(Stage{ID: "a", Tasks: one, After: []Dep{{Stage: "x"}}}), `unknown stage "x"`},
		{"duplicate", job(Stage{ID: "a", Tasks: one}, Stage{ID: "a", Tasks: one}), "used twice"},
		{"cycle", job(Stage{ID: "a", Tasks: one, After: []Dep{{Stage: "b"}}}, Stage{ID: "b", Tasks: one, After: []Dep{{Stage: "a"}}}), "cycle"},
		{"one-to-one", job(Stage{ID: "a", Tasks: one}, Stage{ID: "b", Tasks: two, After: []Dep{{Stage: "a", Pattern: OneToOne}}}), "equal task counts"},
		{"pin", job(Stage{ID: "a", Tasks: []Task{{Pin: 7}}}), "pin 7"},
		{"negative", job(Stage{ID: "a", Tasks: []Task{{Pin: NoPin, Output: -1}}}), "output -1 is negative"},
		{"slowstart", job(Stage{ID: "a", Tasks: one}, Stage{ID: "b", Tasks: one, After: []Dep{{Stage: "a", Kind: FinishesBefore, SlowStart: 2}}}), "slow-start"},
		{"empty stage", job(Stage{ID: "a"}), "at least one task"},
		{"repeated parent", job(Stage{ID: "a", Tasks: one}, Stage{ID: "b", Tasks: one, After: []Dep{{Stage: "a"}, {Stage: "a", Pattern: Broadcast}}}), `stage "a" is listed twice (also after[0])`},
		{"repeated job parent", &Job{ID: "j", After: []string{"p", "q", "p"}, Stages: []Stage{{ID: "a", Tasks: one}}}, `after[2]: job "p" is listed twice (also after[0])`},
		{"every share 0", job(Stage{ID: "a", Tasks: one}, Stage{ID: "b", Tasks: zero, After: []Dep{{Stage: "a"}}}), `every task of stage "b" has share 0`},
		{"generated shares 0", job(Stage{ID: "a", Tasks: one}, Stage{ID: "b", Generate: &TaskGen{Count: 2, Share: ConstDist(0)}, After: []Dep{{Stage: "a"}}}), `every task of stage "b" has share 0`},
		{"NUL in a job id", &Job{ID: "a\x00b", Stages: []Stage{{ID: "a", Tasks: one}}}, `holds the character U+0000`},
		{"BOM in a stage id", job(Stage{ID: "\ufeffa", Tasks: one}), `holds the character U+FEFF`},
		{"bad dist", job(Stage{ID: "a", Generate: &TaskGen{Count: 2, Input: Dist{Kind: Uniform, A: 2, B: 1}}}), "uniform"},
	} {
		err := c.j.Validate(4)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

func TestExpandAndDistributions(t *testing.T) {
	st := Stage{ID: "m", Tasks: []Task{{Share: 1, Compute: 1, Pin: NoPin}}, Generate: &TaskGen{Count: 20000,
		Input: Dist{Kind: LogNormal, A: 64e6, B: 0.5}, Compute: Dist{Kind: Exponential, A: 3}, Share: Dist{Kind: Zipf, A: 1}}}
	tasks := st.Expand(rand.New(rand.NewPCG(1, 2)))
	if len(tasks) != 20001 || tasks[0].Share != 1 {
		t.Fatalf("got %d tasks, first share %v", len(tasks), tasks[0].Share)
	}
	var in, comp float64
	for _, tk := range tasks[1:] {
		in += tk.Input
		comp += tk.Compute
	}
	// Sample means of 20k draws are within a few percent of the true means.
	if m, want := in/20000, st.Generate.Input.Mean(0); math.Abs(m-want)/want > 0.03 {
		t.Errorf("lognormal mean %v, want %v", m, want)
	}
	if m := comp / 20000; math.Abs(m-3)/3 > 0.03 {
		t.Errorf("exponential mean %v, want 3", m)
	}
	if tasks[1].Share != 1 || tasks[2].Share != 0.5 {
		t.Errorf("zipf shares %v %v, want 1 and 1/2", tasks[1].Share, tasks[2].Share)
	}
	again := st.Expand(rand.New(rand.NewPCG(1, 2)))
	if again[500] != tasks[500] {
		t.Error("the same seed must give the same tasks")
	}
}
