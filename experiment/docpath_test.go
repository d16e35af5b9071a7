package experiment

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSetPath(t *testing.T) {
	doc := func() map[string]any {
		return map[string]any{
			"cluster":   map[string]any{"racks": uint64(2)},
			"workload":  map[string]any{"jobs": []any{map[string]any{"id": "a"}, map[string]any{"id": "b", "stages": []any{map[string]any{"count": uint64(1)}}}}},
			"scheduler": "fifo",
		}
	}
	for _, tc := range []struct {
		path string
		v    any
		want func(map[string]any)
	}{
		{"cluster.racks", uint64(4), func(d map[string]any) { d["cluster"].(map[string]any)["racks"] = uint64(4) }},
		{"network.ocs.delay", "10ms", func(d map[string]any) { d["network"] = map[string]any{"ocs": map[string]any{"delay": "10ms"}} }},
		{"workload.jobs[1].stages[0].count", uint64(9), func(d map[string]any) {
			d["workload"].(map[string]any)["jobs"].([]any)[1].(map[string]any)["stages"].([]any)[0].(map[string]any)["count"] = uint64(9)
		}},
		{"workload.jobs.0.arrival", "3s", func(d map[string]any) {
			d["workload"].(map[string]any)["jobs"].([]any)[0].(map[string]any)["arrival"] = "3s"
		}},
	} {
		got, want := doc(), doc()
		if err := setPath(got, tc.path, tc.v); err != nil {
			t.Errorf("%s: %v", tc.path, err)
			continue
		}
		tc.want(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.path, diff)
		}
	}
	for _, tc := range []struct{ path, want string }{
		{"", "empty path"},
		{"a..b", `path "a..b" has an empty element`},
		{"workload.jobs[x]", `path "workload.jobs[x]": expected [N] with N >= 0 in "jobs[x]"`},
		{"workload.jobs[-1]", `path "workload.jobs[-1]": expected [N] with N >= 0 in "jobs[-1]"`},
		{"workload.jobs[0]x", `path "workload.jobs[0]x": unexpected "x" after ]`},
		{"[0]", `path "[0]" must start with a key`},
		{"cluster[0]", `path "cluster[0]": cluster is a mapping, not a list`},
		{"workload.jobs.id", `path "workload.jobs.id": workload.jobs is a list; use [N] to pick an item`},
		{"workload.jobs[2].id", `path "workload.jobs[2].id": index 2 is out of range (workload.jobs has 2 items)`},
		{"scheduler.params", `path "scheduler.params": scheduler is a value (fifo), not a mapping or list`},
		{"dfs.replicas[0]", `path "dfs.replicas[0]": dfs.replicas has no list to index`},
	} {
		err := setPath(doc(), tc.path, 1)
		if err == nil || err.Error() != tc.want {
			t.Errorf("setPath(%q) = %v, want %s", tc.path, err, tc.want)
		}
	}
}

func TestDeepCopyIsIndependent(t *testing.T) {
	orig := map[string]any{"a": []any{map[string]any{"b": 1}}}
	cp := deepCopy(orig).(map[string]any)
	cp["a"].([]any)[0].(map[string]any)["b"] = 2
	if orig["a"].([]any)[0].(map[string]any)["b"] != 1 {
		t.Error("changing the copy changed the original")
	}
}
