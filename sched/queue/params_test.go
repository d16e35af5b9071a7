package queue_test

import (
	"testing"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sim"
)

func TestParamErrors(t *testing.T) {
	q := func(entries ...map[string]any) []any {
		out := make([]any, len(entries))
		for i, e := range entries {
			out[i] = e
		}
		return out
	}
	for _, c := range []struct {
		sched  string
		params map[string]any
		want   []string
	}{
		{"fair", map[string]any{"bogus": 1}, []string{"scheduler fair", "unknown parameter(s) bogus", "known:", "locality_node"}},
		{"fair", map[string]any{"locality_node": "high"}, []string{"parameter locality_node", "got high", "expected a number"}},
		{"fair", map[string]any{"auto_create_queues": "yes"}, []string{"auto_create_queues", "expected true or false"}},
		{"delay", map[string]any{"variant": "sometimes"}, []string{"parameter variant", "one of skip, wait"}},
		{"delay", map[string]any{"w1": "soon"}, []string{"parameter w1", "duration"}},
		{"capacity", map[string]any{"node_locality_delay": 1.5}, []string{"node_locality_delay", "an integer"}},
		{"fair", map[string]any{"queues": "prod"}, []string{"parameter queues", "expected a list of queues"}},
		{"fair", map[string]any{"queues": []any{"prod"}}, []string{"entry 1", "expected a mapping"}},
		{"fair", map[string]any{"queues": q(map[string]any{"weight": 2})}, []string{"entry 1", "needs a name"}},
		{"fair", map[string]any{"queues": q(map[string]any{"name": "a", "wieght": 2})}, []string{"entry 1", `unknown key "wieght"`, "weight"}},
		{"fair", map[string]any{"queues": q(map[string]any{"name": "a", "weight": -1})}, []string{"weight", "expected a number >= 0"}},
		{"fair", map[string]any{"queues": q(map[string]any{"name": "a.b"})}, []string{`"a.b"`, "dots"}},
		{"fair", map[string]any{"queues": q(map[string]any{"name": "a"}, map[string]any{"name": "a"})}, []string{`queue "a" is declared twice`}},
		{"fair", map[string]any{"queues": q(map[string]any{"name": "a", "parent": "nope"})}, []string{`queue "a"`, `parent "nope" is not declared`}},
		{"fair", map[string]any{"queues": q(map[string]any{"name": "a", "parent": "b"}, map[string]any{"name": "b", "parent": "a"})}, []string{"cycle"}},
		{"fair", map[string]any{"queues": q(map[string]any{"name": "a", "policy": "fifo"}, map[string]any{"name": "b", "parent": "a"})}, []string{`queue "a"`, "fifo is valid for leaf queues only"}},
		{"fair", map[string]any{"queues": q(map[string]any{"name": "a", "policy": "lifo"})}, []string{`policy "lifo"`, "fair, fifo or drf"}},
		{"fair", map[string]any{"queues": q(map[string]any{"name": "a", "min_share": 5, "max_share": 2})}, []string{"min_share 5 is above max_share 2"}},
		{"fair", map[string]any{"queues": q(map[string]any{"name": "a", "max_share": 0})}, []string{"max_share 0", "at least 1 slot"}},
		{"fair", map[string]any{"user_weights": map[string]any{"alice": "lots"}}, []string{"parameter user_weights", `user "alice"`}},
		{"delay", map[string]any{"queues": q(map[string]any{"name": "root"})}, []string{"may not be root"}},
		{"capacity", map[string]any{"queues": q(map[string]any{"name": "a", "capacity": 0.7}, map[string]any{"name": "b", "capacity": 0.2})}, []string{"children of root sum to 0.9", "expected 1"}},
		{"capacity", map[string]any{"queues": q(map[string]any{"name": "a"})}, []string{`queue "a"`, "capacity is required"}},
		{"capacity", map[string]any{"queues": q(map[string]any{"name": "a", "capacity": 1.5})}, []string{"capacity", "fraction between 0 and 1"}},
		{"capacity", map[string]any{"queues": q(map[string]any{"name": "a", "capacity": 1, "maximum_capacity": 0.5})}, []string{"maximum_capacity 0.5 is below its capacity 1"}},
		{"capacity", map[string]any{"queues": q(map[string]any{"name": "a", "capacity": 1, "weight": 2})}, []string{`unknown key "weight"`, "capacity, maximum_capacity"}},
		{"capacity", map[string]any{"queues": q(map[string]any{"name": "a", "capacity": 1, "policy": "fair"}, map[string]any{"name": "b", "parent": "a", "capacity": 1})}, []string{`queue "a"`, "leaf queues only"}},
		{"capacity", map[string]any{"queues": []any{}}, []string{"the list is empty"}},
	} {
		_, err := sched.NewScheduler(c.sched, c.params)
		wantErr(t, err, c.want...)
	}
}

// A job naming a queue that is not configured: with auto-creation off the
// job is never placed, the run fails, and Err says which job and queue.
func TestUnknownQueue(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 1, nic: 1GB/s}
workload:
  jobs:
    - {id: A, queue: prod, stages: [{id: work, count: 2, compute: 1s}]}
    - {id: B, queue: QUEUE, stages: [{id: work, count: 2, compute: 1s}]}
scheduler: {name: fair, params: {auto_create_queues: AUTO, queues: [{name: prod}, {name: research}, {name: alice, parent: research}]}}
`
	for _, c := range []struct {
		queue, auto string
		want        []string
	}{
		{"dev", "false", []string{`job "B" names queue "dev", which is not configured`, "root.prod, root.research.alice", "params.queues"}},
		{"research", "true", []string{`job "B" names queue "research", which is a parent queue`}},
		{"root", "true", []string{`job "B" names queue "root", which is a parent queue`}},
	} {
		sc := schedtest.Parse(t, replace(replace(doc, "QUEUE", c.queue), "AUTO", c.auto))
		s, err := sched.NewScheduler(sc.Scheduler.Name, sc.Scheduler.Params)
		if err != nil {
			t.Fatal(err)
		}
		_, err = sim.RunWith(sc, s)
		wantErr(t, err, append([]string{"scheduler fair"}, c.want...)...) // the engine stops the run with the reason
	}
	// With auto-creation on, the unknown queue is created and the run ends;
	// root.dev and root.prod tie at every offer and dev wins by name.
	r := run(t, replace(replace(doc, "QUEUE", "dev"), "AUTO", "true"))
	if a, b := jct(t, r, "A"), jct(t, r, "B"); !schedtest.Near(a, 4) || !schedtest.Near(b, 2) {
		t.Fatalf("JCTs A=%v B=%v, want 4 and 2", a, b)
	}
	// Every scheduler here reports no error on a clean run.
	for _, name := range []string{"fair", "capacity", "delay"} {
		s, err := sched.NewScheduler(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.(interface{ Err() error }).Err(); err != nil {
			t.Fatalf("%s: Err() = %v before any job", name, err)
		}
	}
}
