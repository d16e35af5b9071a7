package queue

import (
	"slices"
	"testing"

	"github.com/netsched/netsched/sched"
)

func TestFairBefore(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b share // a must come first
	}{
		{"demand before none", share{usage: 9, demand: 10, weight: 1}, share{demand: 0, weight: 1}},
		{"needy first", share{usage: 3, demand: 10, minShare: 5, weight: 1}, share{usage: 0, demand: 10, weight: 1}},
		{"needy ratio", share{usage: 1, demand: 10, minShare: 4}, share{usage: 1, demand: 10, minShare: 2}},
		{"needy ratio capped by demand", share{usage: 1, demand: 3, minShare: 4}, share{usage: 1, demand: 10, minShare: 2}},
		{"usage per weight", share{usage: 3, demand: 9, weight: 2}, share{usage: 2, demand: 9, weight: 1}},
		{"nonzero weight first", share{usage: 9, demand: 9, weight: 1}, share{usage: 0, demand: 9, weight: 0}},
		{"both zero weights: usage", share{usage: 1, demand: 9}, share{usage: 2, demand: 9}},
		{"equal needy ratio: weight decides", share{usage: 1, demand: 9, minShare: 2, weight: 2}, share{usage: 1, demand: 9, minShare: 2, weight: 1}},
		{"tie: earlier start", share{usage: 2, demand: 9, weight: 2, start: 1}, share{usage: 1, demand: 9, weight: 1, start: 2}},
		{"tie: name", share{demand: 1, weight: 1, name: "root.a"}, share{demand: 1, weight: 1, name: "root.b"}},
		{"tie: submission order", share{demand: 1, weight: 1, seq: 3}, share{demand: 1, weight: 1, seq: 4}},
	} {
		if !fairBefore(c.a, c.b) || fairBefore(c.b, c.a) {
			t.Errorf("%s: want %+v before %+v", c.name, c.a, c.b)
		}
	}
	// FIFO ignores usage entirely.
	if !fifoBefore(share{usage: 9, start: 1}, share{start: 2}) {
		t.Error("fifo: the earlier start must go first")
	}
}

func TestBestFirst(t *testing.T) {
	items := []int{5, 3, 9, 1, 7, 3, 8}
	var seen []int
	bestFirst(items, func(a, b int) bool { return a < b }, func(x int) bool {
		seen = append(seen, x)
		return x == 7
	})
	if want := []int{1, 3, 3, 5, 7}; !slices.Equal(seen, want) {
		t.Fatalf("visited %v, want %v", seen, want)
	}
	bestFirst(nil, func(a, b int) bool { return a < b }, func(int) bool { t.Fatal("called on empty"); return true })
}

// §1.4 on 4 machines with thresholds 0.5: relax after more than 2
// opportunities at a level, resetting the count.
func TestFairAllowedLevel(t *testing.T) {
	f := &Fair{node: 0.5, rack: 0.5}
	var r request
	want := []sched.Locality{sched.NodeLocal, sched.NodeLocal, sched.RackLocal, sched.RackLocal, sched.RackLocal, sched.OffSwitch, sched.OffSwitch}
	for i, w := range want {
		r.opportunities++
		if got := f.allowed(&r, 4); got != w {
			t.Fatalf("opportunity %d: allowed %s, want %s", i+1, got, w)
		}
	}
	if off := (&Fair{node: -1, rack: 0.5}).allowed(&request{}, 4); off != sched.OffSwitch {
		t.Fatalf("a negative threshold must allow off-switch, got %s", off)
	}
}

// §3.2 with W1 = 2 s and W2 = 3 s.
func TestDelayAllowedLevel(t *testing.T) {
	d := &Delay{w1: 2, w2: 3}
	for _, c := range []struct {
		level sched.Locality
		wait  float64
		want  sched.Locality
	}{
		{sched.NoPreference, 1.9, sched.NodeLocal},
		{sched.NodeLocal, 2, sched.RackLocal},
		{sched.NodeLocal, 4.9, sched.RackLocal},
		{sched.NodeLocal, 5, sched.OffSwitch},
		{sched.RackLocal, 0, sched.RackLocal},
		{sched.RackLocal, 3, sched.OffSwitch},
		{sched.OffSwitch, 0, sched.OffSwitch},
	} {
		if got := d.allowed(&app{level: c.level, wait: c.wait}); got != c.want {
			t.Errorf("level %s, waited %gs: allowed %s, want %s", c.level, c.wait, got, c.want)
		}
	}
}

func TestCapacityOrder(t *testing.T) {
	c := &Capacity{slots: 10}
	a := &queue{path: "root.a", absCap: 0.7, running: 4} // 4/7
	b := &queue{path: "root.b", absCap: 0.3, running: 2} // 2/3
	if !c.before(a, b) || c.before(b, a) {
		t.Fatal("the queue less used relative to its guarantee goes first")
	}
	zero := &queue{path: "root.z", absCap: 0}
	if !c.before(zero, a) {
		t.Fatal("an idle zero-capacity queue counts as unused")
	}
	zero.running = 1
	if c.before(zero, a) {
		t.Fatal("a busy zero-capacity queue goes last")
	}
}
