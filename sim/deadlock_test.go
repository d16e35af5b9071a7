package sim_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sim"
)

// reducersFirst places a waiting task of a stage with parents (a reducer)
// before any other: the policy that lets slow-started reducers take every
// slot. Tasks of stage hold wait until holdUntil. Its ticks keep events
// coming as NAS's do, and it fails the run past 1000s so that an undetected
// deadlock ends the test instead of spinning until the test times out.
type reducersFirst struct {
	hold      string
	holdUntil float64
	now       float64
}

func (s *reducersFirst) Offer(v sched.View, m int, p *sched.Plan) {
	var other sched.Task
	for _, j := range v.Jobs() {
		for _, st := range j.Stages() {
			t := st.NextWaiting(m)
			switch {
			case t.IsZero() || st.ID() == s.hold && v.Now() < s.holdUntil:
			case st.NumParents() > 0:
				p.Place(t, m)
				return
			case other.IsZero():
				other = t
			}
		}
	}
	if !other.IsZero() {
		p.Place(other, m)
	}
}

func (s *reducersFirst) TickInterval() float64 { return 1 }
func (s *reducersFirst) Tick(v sched.View)     { s.now = v.Now() }

func (s *reducersFirst) Err() error {
	if s.now > 1000 {
		return fmt.Errorf("still running at t=%gs", s.now)
	}
	return nil
}

func runWith(t *testing.T, doc string, s sched.Scheduler) (*sim.Engine, error) {
	t.Helper()
	sc, err := scenario.Parse(t.Name()+".yaml", []byte(doc), ".")
	if err != nil {
		t.Fatalf("scenario: %v", err)
	}
	sc.Check = true
	return sim.New(sc, s)
}

// One machine with two slots; four 1s maps and three reducers with
// slow-start 0.5. Maps 0 and 1 end at t=1, the reducers become ready and take
// both slots, each waiting for maps 2 and 3, which can never start: the
// run must stop at once with the deadlock, under immediate offers as under
// heartbeats, although ticks and heartbeats keep producing events.
func TestReducerDeadlockDetected(t *testing.T) {
	for _, offers := range []string{"immediate", "heartbeat"} {
		t.Run(offers, func(t *testing.T) {
			e, err := runWith(t, `
cluster: {racks: 1, machines_per_rack: 1, slots_per_machine: 2, nic: 1Gbps}
engine: {offers: `+offers+`}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, count: 4, compute: 1s, output: 1MB}
        - {id: reduce, after: [{stage: map, slowstart: 0.5}], count: 3, compute: 1s}
scheduler: fifo
`, &reducersFirst{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.Run()
			if err == nil || !strings.Contains(err.Error(), "every slot is held by reducers waiting for maps that cannot start") ||
				!strings.Contains(err.Error(), "2 of 2 slot(s)") || !strings.Contains(err.Error(), "reducersFirst") {
				t.Fatalf("got %v, want the deadlock error naming the scheduler", err)
			}
			if offers == "immediate" && !strings.Contains(err.Error(), "t=1s") {
				t.Fatalf("got %v, want the deadlock reported at t=1s", err)
			}
			if errors.Is(err, sched.ErrCheck) {
				t.Fatalf("got %v: a deadlock the scenario causes is no failed check", err)
			}
		})
	}
}

// Runs in which reducers hold slots in their input phase, waiting for maps,
// and which still end.
func TestWaitingReducersNotDeadlocked(t *testing.T) {
	for _, c := range []struct {
		name string
		doc  string
		s    *reducersFirst
		jct  map[string]float64
	}{{
		// Every slot held by reducers while one still fetches: Z (pinned
		// to machine 1) and A's map 0 (pinned to 0) run [0,1]; map 1
		// waits. At t=1 reducer 0 takes machine 1 and fetches map 0's
		// 1MB from machine 0 over [1,2]; reducer 1 takes machine 0 and
		// waits for map 1. Reducer 0 computes [2,3]; map 1 runs on
		// machine 1 [3,4]; reducer 1 fetches its 1MB [4,5] and computes
		// [5,6]: JCT of A 6.
		name: "all slots, one fetching",
		doc: `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1MB/s}
network: {topology: nonblocking}
workload:
  jobs:
    - {id: Z, stages: [{id: z, tasks: [{compute: 1s, pin: 1}]}]}
    - id: A
      stages:
        - {id: map, tasks: [{compute: 1s, output: 1MB, pin: 0}, {compute: 1s, output: 1MB}]}
        - {id: reduce, after: [{stage: map, slowstart: 0.5, pattern: one-to-one}], count: 2, compute: 1s}
scheduler: fifo
`,
		s:   &reducersFirst{},
		jct: map[string]float64{"Z": 1, "A": 6},
	}, {
		// A reducer waits on machine 1 while machine 0 is free and idle:
		// the scheduler holds stage late until t=10, when B's arrival
		// gives it the next opportunity. Map runs [0,1]; the reducer
		// starts at 1, fetches the map's 1MB [1,2], then waits; late
		// runs [10,11], its 1MB moves [11,12], the reducer computes
		// [12,13]: JCT of A 13. B runs on machine 0 [11,12]: JCT 2.
		name: "free slot, pending arrival",
		doc: `
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1MB/s}
network: {topology: nonblocking}
workload:
  jobs:
    - id: A
      stages:
        - {id: map, tasks: [{compute: 1s, output: 1MB, pin: 0}]}
        - {id: late, tasks: [{compute: 1s, output: 1MB, pin: 0}]}
        - {id: reduce, after: [{stage: map, slowstart: 0}, {stage: late, slowstart: 0}], tasks: [{compute: 1s, pin: 1}]}
    - {id: B, arrival: 10s, stages: [{id: b, tasks: [{compute: 1s, pin: 0}]}]}
scheduler: fifo
`,
		s:   &reducersFirst{hold: "late", holdUntil: 10},
		jct: map[string]float64{"A": 13, "B": 2},
	}} {
		t.Run(c.name, func(t *testing.T) {
			e, err := runWith(t, c.doc, c.s)
			if err != nil {
				t.Fatal(err)
			}
			r, err := e.Run()
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			for id, want := range c.jct {
				if got := jct(t, r, id); !near(got, want) {
					t.Errorf("JCT of %s = %v, want %v", id, got, want)
				}
			}
		})
	}
}
