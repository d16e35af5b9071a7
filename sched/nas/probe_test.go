package nas_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched/nas"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/trace/swim"
	"github.com/netsched/netsched/workload"
)

const tenthCluster = `
seed: 1
cluster: {racks: 6, machines_per_rack: 10, slots_per_machine: 6, nic: 250Mbps}
network: {topology: two-tier, rack_uplink: 500Mbps, rack_downlink: 500Mbps}
dfs: {block: 128MB, replicas: 3}
engine: {heartbeat: 1s}
workload: {jobs: [{id: placeholder, stages: [{id: s, tasks: [{compute: 1s}]}]}]}
scheduler: nas
`

func TestFBProbe(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("NAS_FB_JOBS"))
	if n == 0 {
		t.Skip("NAS_FB_JOBS not set")
	}
	sc, err := scenario.Parse("fb.yaml", []byte(tenthCluster), ".")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := swim.ParseOptions(map[string]any{"users": 200, "max_jobs": n, "size_scale": 0.1}, sc)
	if err != nil {
		t.Fatal(err)
	}
	path := fbTrace(t)
	sc.OpenWorkload = func() (workload.Source, error) { return swim.OpenFile(path, cfg) }
	c := nas.DefaultConfig()
	c.LightShuffle, c.HeavyShuffle, c.SmallInput = 0.1e6, 10e6, 1e6
	var s sim.Scheduler = &progress{Scheduler: nas.New(c), start: time.Now()}
	if name := os.Getenv("NAS_SCHED"); name != "" {
		var err error
		s, err = sim.NewScheduler(name, nil)
		if err != nil {
			t.Fatal(err)
		}
	}
	r, err := sim.RunWith(sc, s)
	if err != nil {
		t.Fatal(err)
	}
	sm := r.Summary
	t.Logf("jobs %d tasks %d jct %.1f makespan %.0f thr %.4f cross %.3g congested %d/%d events %d", sm.Jobs, sm.Tasks, sm.JCT.Mean, sm.Makespan, sm.Throughput, sm.Bytes.Total.CrossRack, sm.Congested, sm.MonitorSamples, sm.Events)
	t.Logf("%+v", r.Timing)
	if ns, ok := s.(*progress); ok {
		t.Logf("%+v", ns.Stats())
	}
}

type progress struct {
	*nas.Scheduler
	start time.Time
	next  float64
}

func (p *progress) Tick(v *sim.View) {
	p.Scheduler.Tick(v)
	if v.Now() >= p.next {
		fmt.Printf("sim %6.0fs wall %6.1fs jobs active %d waiting tasks %d util %.2f\n", v.Now(), time.Since(p.start).Seconds(), len(v.Jobs()), v.WaitingTasks(), v.Monitor().CrossRackUtilization)
		p.next += 200
	}
}
