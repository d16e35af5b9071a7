package scenario

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/netsched/netsched/workload"
)

type depHolder struct {
	After     DepList       `yaml:"after,omitempty"`
	Scheduler SchedulerSpec `yaml:"scheduler,omitempty"`
}

func decodeDeps(t *testing.T, text string) (depHolder, error) {
	t.Helper()
	src, err := parseDocument("t.yaml", []byte(text))
	if err != nil {
		return depHolder{}, err
	}
	var h depHolder
	err = decodeNode(src, src.body, &h)
	return h, err
}

func TestDepListForms(t *testing.T) {
	ss := 0.1
	for _, c := range []struct {
		text    string
		want    DepList
		deps    []workload.Dep
		encoded string
	}{
		{"after: map", DepList{{Stage: "map"}}, []workload.Dep{{Stage: "map"}}, "after: map\n"},
		{"after: [map, join]", DepList{{Stage: "map"}, {Stage: "join"}}, []workload.Dep{{Stage: "map"}, {Stage: "join"}},
			"after:\n  - map\n  - join\n"},
		{"after: 3", DepList{{Stage: "3"}}, []workload.Dep{{Stage: "3"}}, "after: \"3\"\n"},
		{"after: [{stage: map, slowstart: 0.1, pattern: broadcast}, join]",
			DepList{{Stage: "map", SlowStart: &ss, Pattern: "broadcast"}, {Stage: "join"}},
			[]workload.Dep{{Stage: "map", Kind: workload.FinishesBefore, SlowStart: 0.1, Pattern: workload.Broadcast}, {Stage: "join"}},
			"after:\n  - stage: map\n    slowstart: 0.1\n    pattern: broadcast\n  - join\n"},
		{"after: [{stage: m, pattern: one-to-one}]", DepList{{Stage: "m", Pattern: "one-to-one"}},
			[]workload.Dep{{Stage: "m", Kind: workload.StartsAfter, Pattern: workload.OneToOne}},
			"after:\n  - stage: m\n    pattern: one-to-one\n"},
		{"after: []", nil, nil, "{}\n"},
	} {
		got, err := decodeDeps(t, c.text)
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		if diff := cmp.Diff(c.want, got.After); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.text, diff)
		}
		if diff := cmp.Diff(c.deps, got.After.toDeps()); diff != "" {
			t.Errorf("%s deps (-want +got):\n%s", c.text, diff)
		}
		if diff := cmp.Diff(got.After, fromDeps(got.After.toDeps())); diff != "" {
			t.Errorf("%s fromDeps (-want +got):\n%s", c.text, diff)
		}
		data, err := yamlMarshal(depHolder{After: got.After})
		if err != nil || string(data) != c.encoded {
			t.Errorf("%s encoded as %q, want %q (%v)", c.text, data, c.encoded, err)
		}
	}
}

func TestSchedulerSpecForms(t *testing.T) {
	for _, c := range []struct {
		text    string
		want    SchedulerSpec
		encoded string
	}{
		{"scheduler: fair", SchedulerSpec{Name: "fair"}, "scheduler: fair\n"},
		{"scheduler: {name: delay, params: {skips: 3, rack: true}}",
			SchedulerSpec{Name: "delay", Params: map[string]any{"skips": uint64(3), "rack": true}},
			"scheduler:\n  name: delay\n  params:\n    rack: true\n    skips: 3\n"},
	} {
		got, err := decodeDeps(t, c.text)
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		if diff := cmp.Diff(c.want, got.Scheduler); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.text, diff)
		}
		data, err := yamlMarshal(depHolder{Scheduler: got.Scheduler})
		if err != nil || string(data) != c.encoded {
			t.Errorf("%s encoded as %q, want %q (%v)", c.text, data, c.encoded, err)
		}
	}
	_, err := decodeDeps(t, "scheduler: {name: fair, weights: 2}")
	if want := `t.yaml:1:25: scheduler.weights: unknown key "weights" (expected one of: name, params, network, network_params)`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
