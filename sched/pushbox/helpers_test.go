package pushbox_test

import (
	"math"
	"strings"
	"testing"

	"github.com/netsched/netsched/metrics"
	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/pushbox"
	_ "github.com/netsched/netsched/sched/queue"
	"github.com/netsched/netsched/sim"
)

// runPushBox simulates yaml under PushBox with cfg, failing the test on a
// run error or a priority-bookkeeping violation; it returns JCT by job.
func runPushBox(t *testing.T, yaml string, cfg pushbox.Config) map[string]float64 {
	t.Helper()
	s := pushbox.New(cfg)
	res, err := sim.RunWith(schedtest.Parse(t, yaml), s)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return jcts(res)
}

// runNamed simulates yaml with a registered scheduler and parameters.
func runNamed(t *testing.T, yaml, name string, params map[string]any) map[string]float64 {
	t.Helper()
	sc := schedtest.Parse(t, yaml)
	sc.Scheduler = scenario.SchedulerSpec{Name: name, Params: params}
	res, err := sim.Run(sc)
	if err != nil {
		t.Fatal(err)
	}
	return jcts(res)
}

func jcts(res *metrics.Result) map[string]float64 {
	out := map[string]float64{}
	for _, j := range res.Jobs {
		out[j.ID] = j.JCT
	}
	return out
}

// near compares JCTs to an absolute 1e-6, looser than schedtest.Near: the
// expected values of these tests were written against it.
func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// expect compares JCTs by job id.
func expect(t *testing.T, who string, got map[string]float64, want map[string]float64) {
	t.Helper()
	var bad []string
	for id, w := range want {
		if g, ok := got[id]; !ok || !near(g, w) {
			bad = append(bad, id)
		}
	}
	if len(bad) > 0 {
		t.Errorf("%s: JCT %v, want %v (wrong: %s)", who, got, want, strings.Join(bad, ", "))
	}
}

// cfg is DefaultConfig with changes.
func cfg(change func(c *pushbox.Config)) pushbox.Config {
	c := pushbox.DefaultConfig()
	if change != nil {
		change(&c)
	}
	return c
}
