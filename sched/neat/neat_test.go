package neat_test

import (
	"strings"
	"testing"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/schedtest"
	"github.com/netsched/netsched/sched/neat"
	_ "github.com/netsched/netsched/sched/netpolicy"
	_ "github.com/netsched/netsched/sched/queue"
)

// placed wraps a scheduler with a data placement chosen by the test.
type placed struct {
	sched.Scheduler
	replicas map[string][]int
}

func (p placed) PlaceInput(v sched.View, in sched.InputSplit) []int { return p.replicas[in.Job.ID] }

// neatWith wraps neat with the test's replicas; embedding the concrete
// type keeps the optional interfaces (Global, Initializer).
type neatWith struct {
	*neat.Scheduler
	replicas map[string][]int
}

func (p neatWith) PlaceInput(v sched.View, in sched.InputSplit) []int { return p.replicas[in.Job.ID] }

func build(t *testing.T, params map[string]any) *neat.Scheduler {
	t.Helper()
	s, err := sched.NewScheduler("neat", params)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*neat.Scheduler)
}

// busyDownlink: B's reducer on machine 0 receives 1000 MB from machine 1
// over [0, 10] s at the NIC speed (100 MB/s); C holds both slots of machine
// 2 for 100 s. At 1 s, S's map arrives reading 100 MB from its replica on
// machine 2. Machines 0 (one slot free, downlink busy with 900 MB left) and
// 1 (idle downlink) may take it. Fair predictor: on 0, (100 + 100)/100 = 2 s
// plus 1 s of delay to B's flow plus 1 s compute = 4; on 1, 1 + 0 + 1 = 2.
const busyDownlink = `
cluster: {racks: 1, machines_per_rack: 3, slots_per_machine: 2, nic: 100MB/s}
network: {topology: nonblocking}
dfs: {replicas: 1}
workload:
  jobs:
    - id: B
      stages:
        - {id: map, tasks: [{compute: 0s, output: 1000MB, pin: 1}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 0}]}
    - id: C
      stages:
        - {id: long, tasks: [{compute: 100s, pin: 2}, {compute: 100s, pin: 2}]}
    - id: S
      arrival: 1s
      stages:
        - {id: map, tasks: [{input: 100MB, compute: 1s}]}
scheduler: SCHED
`

var busyReplicas = map[string][]int{"S": {2}}

func TestAvoidsBusyDownlink(t *testing.T) {
	for _, pred := range []string{"auto", "fair", "fcfs", "srpt", "las"} {
		doc := strings.Replace(busyDownlink, "SCHED", "neat", 1)
		r := schedtest.Run(t, doc, neatWith{build(t, map[string]any{"predictor": pred}), busyReplicas})
		s := schedtest.Tasks(r, "S", "map")[0]
		if s.Machine != 1 {
			t.Errorf("predictor %s: S's map on machine %d, want 1 (idle downlink)", pred, s.Machine)
		}
		if !schedtest.Near(s.Start, 1) || !schedtest.Near(s.Finish, 3) {
			t.Errorf("predictor %s: S's map ran [%v, %v], want [1, 3]", pred, s.Start, s.Finish)
		}
	}
}

// fifo takes the first slot offered, machine 0's, and S's map shares the
// busy downlink: 2 s of input at 50 MB/s, done at 4 s instead of 3.
func TestDiffersFromFIFO(t *testing.T) {
	doc := strings.Replace(busyDownlink, "SCHED", "fifo", 1)
	f, err := sched.NewScheduler("fifo", nil)
	if err != nil {
		t.Fatal(err)
	}
	rf := schedtest.Run(t, doc, placed{f, busyReplicas})
	rn := schedtest.Run(t, strings.Replace(busyDownlink, "SCHED", "neat", 1), neatWith{build(t, nil), busyReplicas})
	sf, sn := schedtest.Tasks(rf, "S", "map")[0], schedtest.Tasks(rn, "S", "map")[0]
	if sf.Machine != 0 || !schedtest.Near(sf.Finish, 4) {
		t.Fatalf("fifo: S's map on machine %d finishing at %v, want machine 0 at 4 s", sf.Machine, sf.Finish)
	}
	if sn.Machine == sf.Machine || sn.Finish >= sf.Finish {
		t.Fatalf("neat: S's map on machine %d finishing at %v; fifo: machine %d at %v", sn.Machine, sn.Finish, sf.Machine, sf.Finish)
	}
	// B's reducer is not slowed down by neat's choice: its input ends at 10 s.
	if b := schedtest.Tasks(rn, "B", "reduce")[0]; !schedtest.Near(b.Finish, 11) {
		t.Errorf("neat: B's reducer finished at %v, want 11", b.Finish)
	}
}

// Ties go to locality. S's split is on machine 3 (rack 1), busy; machines
// 0 and 1 (rack 0, off-switch) and 2 (rack 1, rack-local) are free. With
// rack links of twice the NIC speed the cross-rack path's bottleneck is a
// NIC like the rack-local one's: 1 s of input + 1 s compute on all three.
// The rack-local machine wins although machine 0 has the lowest id.
func TestTiesGoToLocality(t *testing.T) {
	doc := `
cluster: {racks: 2, machines_per_rack: 2, slots_per_machine: 1, nic: 100MB/s}
network: {topology: two-tier, oversubscription: 1}
dfs: {replicas: 1}
workload:
  jobs:
    - id: C
      stages:
        - {id: long, tasks: [{compute: 100s, pin: 3}]}
    - id: S
      arrival: 1s
      stages:
        - {id: map, tasks: [{input: 100MB, compute: 1s}]}
scheduler: neat
`
	r := schedtest.Run(t, doc, neatWith{build(t, nil), map[string][]int{"S": {3}}})
	if s := schedtest.Tasks(r, "S", "map")[0]; s.Machine != 2 {
		t.Fatalf("S's map on machine %d, want 2 (rack-local on a tie)", s.Machine)
	}
}

// A node-local map costs no network: with its replica's machine free, it
// runs there even though lower ids are free too.
func TestPrefersNodeLocal(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 4, slots_per_machine: 1, nic: 100MB/s}
network: {topology: nonblocking}
dfs: {replicas: 1}
workload:
  jobs:
    - id: S
      stages:
        - {id: map, tasks: [{input: 100MB, compute: 1s}, {input: 100MB, compute: 1s}]}
scheduler: neat
`
	r := schedtest.Run(t, doc, neatWith{build(t, nil), map[string][]int{"S": {3}}})
	if n := schedtest.PerMachine(r, "S", "map", 4); n[3] != 1 {
		t.Fatalf("maps per machine %v, want one on machine 3 (node-local)", n)
	}
}

// Reducers of one pass spread: each placed reducer's flows load the links
// the next one is predicted on. Two maps on machines 0 and 1 write 100 MB
// each; the two reducers each fetch 50 MB from both. On an idle cluster
// the first goes to machine 0 (half its input local), the second then sees
// machine 0's downlink and machine 1's uplink loaded and picks machine 1.
func TestReducersSpreadWithinAPass(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 3, slots_per_machine: 2, nic: 100MB/s}
network: {topology: nonblocking}
workload:
  jobs:
    - id: J
      stages:
        - {id: map, tasks: [{compute: 1s, output: 100MB, pin: 0}, {compute: 1s, output: 100MB, pin: 1}]}
        - {id: reduce, after: map, count: 2, compute: 1s}
scheduler: neat
`
	r := schedtest.Run(t, doc, build(t, nil))
	if n := schedtest.PerMachine(r, "J", "reduce", 3); n[0] != 1 || n[1] != 1 {
		t.Fatalf("reducers per machine %v, want [1 1 0]", n)
	}
}

// The predictor follows the scenario's network policy unless set.
func TestPredictorFollowsNetworkPolicy(t *testing.T) {
	for _, c := range []struct {
		network string
		param   string
		want    neat.Predictor
	}{
		{"", "auto", neat.Fair},
		{"fifo", "auto", neat.FCFS},
		{"scf", "auto", neat.SRPT},
		{"aalo", "auto", neat.LAS},
		{"varys", "auto", neat.SRPT},
		{"aalo", "fair", neat.Fair},
		{"", "srpt", neat.SRPT},
	} {
		spec := "neat"
		if c.network != "" {
			spec = "{name: neat, network: " + c.network + "}"
		}
		doc := strings.Replace(busyDownlink, "SCHED", spec, 1)
		s := build(t, map[string]any{"predictor": c.param})
		r := schedtest.Run(t, doc, neatWith{s, busyReplicas})
		if s.Predictor() != c.want {
			t.Errorf("network %q, predictor %s: using %v, want %v", c.network, c.param, s.Predictor(), c.want)
		}
		if n := len(schedtest.Tasks(r, "S", "map")); n != 1 {
			t.Errorf("network %q: %d records of S's map", c.network, n)
		}
	}
}

// Two runs of a busy scenario with shuffles give byte-identical results.
func TestDeterministic(t *testing.T) {
	doc := schedtest.BusyJobs(60, 40, "neat", "")
	run := func() []byte {
		r := schedtest.Run(t, doc, build(t, nil))
		files, err := r.Files()
		if err != nil {
			t.Fatal(err)
		}
		var out []byte
		for _, f := range files {
			if f.Name != "timing.json" { // wall-clock times
				out = append(append(out, f.Name...), f.Bytes()...)
			}
		}
		return out
	}
	a, b := run(), run()
	if string(a) != string(b) {
		t.Fatal("two runs differ")
	}
	if len(a) < 1000 {
		t.Fatalf("suspiciously small result (%d bytes)", len(a))
	}
}

func TestRegisteredAsReconstruction(t *testing.T) {
	info, ok := sched.Lookup("neat")
	if !ok {
		t.Fatal("neat is not registered")
	}
	if !strings.Contains(info.Description, "reconstruction") {
		t.Fatalf("description %q does not say it is a reconstruction", info.Description)
	}
	for _, bad := range []map[string]any{{"predictor": "sjf"}, {"compute": "yes"}, {"predicter": "fair"}} {
		if _, err := sched.NewScheduler("neat", bad); err == nil {
			t.Errorf("params %v accepted", bad)
		}
	}
}

// The model matters: machine 0's downlink carries one large flow (B's,
// 950 MB left at 1 s: it shares machine 4's uplink with one of D's), machine
// 1's two small ones (D's reducer fetching 110 MB from machines 3 and 4 at
// 50 MB/s each, 60 MB left). S's map (100 MB from machine 2, NIC 100 MB/s)
// may go to either: C holds every slot of machines 2 to 4.
//
//	fair: m0 (100+100)/100 + 1 = 3      m1 (100+60+60)/100 + 1.2 = 3.4   → m0
//	srpt: m0 100/100 + 1 = 2            m1 (100+60+60)/100 + 0 = 2.2     → m0
//	las:  m0 (100+50)/100 + 1 = 2.5     m1 (100+50+50)/100 + 2 = 4       → m0
//	fcfs: m0 (950+100)/100 + 0 = 10.5   m1 (60+60+100)/100 + 0 = 2.2     → m1
//
// Under `network: fifo` (B's flows first) auto picks fcfs: B then has 900
// MB left and D 110 and 10 MB, so m1 again (2.2 s against 10).
func TestPredictorChangesPlacement(t *testing.T) {
	doc := `
cluster: {racks: 1, machines_per_rack: 5, slots_per_machine: 2, nic: 100MB/s}
network: {topology: nonblocking}
dfs: {replicas: 1}
workload:
  jobs:
    - id: B
      stages:
        - {id: map, tasks: [{compute: 0s, output: 1000MB, pin: 4}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 0}]}
    - id: D
      stages:
        - {id: map, tasks: [{compute: 0s, output: 110MB, pin: 3}, {compute: 0s, output: 110MB, pin: 4}]}
        - {id: reduce, after: map, tasks: [{compute: 1s, pin: 1}]}
    - id: C
      stages:
        - {id: long, tasks: [{compute: 100s, pin: 2}, {compute: 100s, pin: 2}, {compute: 100s, pin: 3}, {compute: 100s, pin: 3}, {compute: 100s, pin: 4}, {compute: 100s, pin: 4}]}
    - id: S
      arrival: 1s
      stages:
        - {id: map, tasks: [{input: 100MB, compute: 1s}]}
scheduler: SCHED
`
	for _, c := range []struct {
		pred, network string
		want          int
	}{
		{"fair", "", 0}, {"srpt", "", 0}, {"las", "", 0}, {"fcfs", "", 1}, {"auto", "", 0}, {"auto", "fifo", 1},
	} {
		spec := "neat"
		if c.network != "" {
			spec = "{name: neat, network: " + c.network + "}"
		}
		r := schedtest.Run(t, strings.Replace(doc, "SCHED", spec, 1), neatWith{build(t, map[string]any{"predictor": c.pred}), busyReplicas})
		if s := schedtest.Tasks(r, "S", "map")[0]; s.Machine != c.want || !schedtest.Near(s.Start, 1) {
			t.Errorf("predictor %s, network %q: S's map on machine %d at %v, want machine %d at 1", c.pred, c.network, s.Machine, s.Start, c.want)
		}
	}
}

// Two jobs of four tasks arrive together on two one-slot machines. With
// order fair the slots go one to each job (fewest running first); with
// fifo both go to the first job.
func TestJobOrder(t *testing.T) {
	const doc = `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbps}
network: {topology: nonblocking}
workload:
  jobs:
    - {id: A, stages: [{id: m, tasks: [{compute: 1s}, {compute: 1s}, {compute: 1s}, {compute: 1s}]}]}
    - {id: B, stages: [{id: m, tasks: [{compute: 1s}, {compute: 1s}, {compute: 1s}, {compute: 1s}]}]}
scheduler: neat
`
	for _, c := range []struct {
		order       string
		bFirstStart float64
	}{{"fair", 0}, {"fifo", 2}} {
		r := schedtest.Run(t, doc, build(t, map[string]any{"order": c.order}))
		first := 1e9
		for _, tk := range schedtest.Tasks(r, "B", "m") {
			first = min(first, tk.Start)
		}
		if !schedtest.Near(first, c.bFirstStart) {
			t.Errorf("order %s: B's first task starts at %v, want %v", c.order, first, c.bFirstStart)
		}
	}
}
