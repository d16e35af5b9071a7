package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/workload"
)

// refCheckJobList is checkJobList before long lists were kept as text: it
// holds every job's file form and the ids of the whole list in a map. The
// property tests check the list kept as text against it.
func refCheckJobList(machines int, specs []JobSpec, src *source, path string) ([]int32, error) {
	order := make([]int32, len(specs))
	all := make(map[string]float64, len(specs))
	for i := range specs {
		order[i] = int32(i)
		if _, dup := all[specs[i].ID]; !dup {
			all[specs[i].ID] = float64(specs[i].Arrival)
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		switch x, y := specs[a].Arrival, specs[b].Arrival; {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	seen := map[string]string{} // id -> path
	for _, i := range order {
		p := fmt.Sprintf("%s[%d]", path, i)
		if err := refCheck(machines, seen, all, src, p, &specs[i]); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// refCheck is jobChecker.check of a list as it was.
func refCheck(machines int, seen map[string]string, all map[string]float64, src *source, path string, js *JobSpec) error {
	at := func(sub, format string, args ...any) error {
		return src.at(joinKey(path, sub), format, args...)
	}
	for i, s := range js.Stages {
		if err := checkStageFields(src, joinKey(path, fmt.Sprintf("stages[%d]", i)), &s); err != nil {
			return err
		}
		for k, t := range s.Tasks {
			if t.Pin != nil && *t.Pin < 0 {
				return at(fmt.Sprintf("stages[%d].tasks[%d].pin", i, k),
					"pin %d is not a machine index (cluster has machines 0..%d)", *t.Pin, machines-1)
			}
		}
	}
	j := js.toJob()
	if err := j.Validate(machines); err != nil {
		if fe, ok := err.(*workload.FieldError); ok {
			return at(fe.Path, "%s", fe.Msg)
		}
		return at("", "%v", err)
	}
	if prev, dup := seen[j.ID]; dup {
		return at("id", "job id %q is used twice (also at line %d)", j.ID, src.lineOf(joinKey(prev, "id")))
	}
	for k, p := range j.After {
		if _, ok := seen[p]; ok {
			continue
		}
		apath := fmt.Sprintf("after[%d]", k)
		switch arr, exists := all[p]; {
		case p == j.ID:
			return at(apath, "job %q depends on itself", p)
		case !exists:
			return at(apath, "unknown job %q", p)
		case arr > j.Arrival:
			return at(apath, "job %q arrives at %s, after job %q (%s); a job may only depend on jobs that arrive no later",
				p, units.FormatDuration(arr), j.ID, units.FormatDuration(j.Arrival))
		default:
			return at(apath, "job %q arrives at the same time as job %q but is listed after it; list it first", p, j.ID)
		}
	}
	seen[j.ID] = path
	return nil
}

// randomJobs writes n jobs as list items indented by indent: mostly one
// flow-style line each, some in block style (decoded by the library), with
// ties in arrival, dependencies between jobs and stages, explicit and
// drawn tasks, pins; with bad, one or more faults a check must report.
func randomJobs(r *rand.Rand, n, machines int, indent string, bad bool) string {
	var b strings.Builder
	arrivals := []string{"0s", "250ms", "1s", "1.5s", "2", "3s", "1m"} // increasing
	at := make([]int, n)
	for i := range n {
		at[i] = r.IntN(len(arrivals))
		id := fmt.Sprintf("j%d", i)
		if bad && r.IntN(n*4) == 0 {
			id = fmt.Sprintf("j%d", r.IntN(i+1)) // a duplicate
		}
		var fields []string
		fields = append(fields, "id: "+id, "arrival: "+arrivals[at[i]])
		if r.IntN(3) == 0 {
			fields = append(fields, fmt.Sprintf("user: u%d", r.IntN(3)))
		}
		if r.IntN(4) == 0 {
			fields = append(fields, fmt.Sprintf("queue: q%d", r.IntN(2)))
		}
		if i > 0 && r.IntN(3) == 0 {
			var ps []string
			for k := range 1 + r.IntN(2) {
				p := r.IntN(i)
				if at[p] <= at[i] && k == 0 || r.IntN(3) == 0 && at[p] <= at[i] {
					ps = append(ps, fmt.Sprintf("j%d", p))
				}
			}
			if bad && r.IntN(n) == 0 {
				ps = append(ps, fmt.Sprintf("j%d", r.IntN(n+2))) // maybe later, unknown or itself
			}
			if len(ps) > 0 {
				fields = append(fields, "after: ["+strings.Join(ps, ", ")+"]")
			}
		}
		var stages []string
		for s := range 1 + r.IntN(3) {
			st := []string{fmt.Sprintf("id: s%d", s)}
			if s > 0 {
				st = append(st, fmt.Sprintf("after: s%d", r.IntN(s)))
			}
			if r.IntN(3) == 0 {
				st = append(st, fmt.Sprintf("count: %d", 1+r.IntN(5)), fmt.Sprintf("compute: %ds", 1+r.IntN(9)), "output: 4MB")
			} else {
				var tasks []string
				for range 1 + r.IntN(3) {
					t := fmt.Sprintf("{compute: %dms, output: %dMB", 1+r.IntN(3000), r.IntN(100))
					if r.IntN(5) == 0 {
						pin := r.IntN(machines)
						if bad && r.IntN(n) == 0 {
							pin = machines // beyond the cluster
						}
						t += fmt.Sprintf(", pin: %d", pin)
					}
					tasks = append(tasks, t+"}")
				}
				st = append(st, "tasks: ["+strings.Join(tasks, ", ")+"]")
			}
			stages = append(stages, "{"+strings.Join(st, ", ")+"}")
		}
		fields = append(fields, "stages: ["+strings.Join(stages, ", ")+"]")
		item := "{" + strings.Join(fields, ", ") + "}"
		if bad && r.IntN(n*3) == 0 {
			item = strings.Replace(item, "ms,", "xs,", 1) // a bad duration
		}
		if r.IntN(6) == 0 { // block style: one key per line
			b.WriteString(indent + "- " + fields[0] + "\n")
			for _, f := range fields[1:] {
				b.WriteString(indent + "  " + f + "\n")
			}
			continue
		}
		b.WriteString(indent + "- " + item + "\n")
	}
	return b.String()
}

// withHeld runs f with maxHeldJobs set to n.
func withHeld(n int, f func()) {
	old := maxHeldJobs
	maxHeldJobs = n
	defer func() { maxHeldJobs = old }()
	f()
}

// refJobs decodes data with every job held and checks the list of a
// cluster of machines with refCheckJobList: the jobs in arrival order, or
// the first error.
func refJobs(data []byte, machines int) ([]workload.Job, error) {
	f, src, err := decodeFile("s.yaml", data, false)
	if err != nil {
		return nil, err
	}
	order, err := refCheckJobList(machines, f.Workload.Jobs, src, "workload.jobs")
	if err != nil {
		return nil, err
	}
	var out []workload.Job
	for _, i := range order {
		out = append(out, f.Workload.Jobs[i].toJob())
	}
	return out, nil
}

func drainJobs(sc *Scenario) ([]workload.Job, error) {
	src, err := sc.OpenWorkload()
	if err != nil {
		return nil, err
	}
	var out []workload.Job
	for {
		j, ok, err := src.Next()
		if err != nil || !ok {
			return out, err
		}
		out = append(out, *j)
	}
}

// TestTextListMatchesHeld loads random scenarios and native YAML traces
// (valid and faulty) with every list kept as text and with every list
// held as before, and compares them with the reference check: the same
// message, or the same jobs in the same order, on every pass.
func TestTextListMatchesHeld(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 3))
	dir := t.TempDir()
	const scenarios = 600
	st := "stages: [{id: m, tasks: [{compute: 1s}]}]}\n"
	fixed := []string{ // messages that cite another job: the first with its id
		"    - {id: d, arrival: 0s, after: [x], " + st + "    - {id: x, arrival: 5s, " + st + "    - {id: x, arrival: 7s, " + st,
		"    - {id: x, arrival: 1s, " + st + "    - {id: y, arrival: 0s, " + st + "    - {id: x, arrival: 2s, " + st,
		"    - {id: x, arrival: 3s, " + st + "    - {id: d, arrival: 1s, after: [x], " + st + "    - {id: x, arrival: 1s, " + st,
		"    - id: x\n      arrival: 2s\n      " + st + "    - {id: y, arrival: 0s, " + st + "    - {id: x, arrival: 2s, " + st,
	}
	failed := 0
	for trial := range scenarios + len(fixed) {
		n := 1 + r.IntN(40)
		bad := trial%3 == 0
		racks, per := 1+r.IntN(2), 1+r.IntN(3)
		cluster := fmt.Sprintf("cluster: {racks: %d, machines_per_rack: %d, slots_per_machine: 1, nic: 1Gbps}\n", racks, per)
		jobs := randomJobs(r, n, racks*per, "    ", bad)
		if trial >= scenarios {
			jobs = fixed[trial-scenarios]
		}
		data := []byte(cluster + "scheduler: fifo\nworkload:\n  jobs:\n" + jobs)
		name := fmt.Sprintf("trial %d", trial)

		want, wantErr := refJobs(data, racks*per)
		var held, text *Scenario
		var heldErr, textErr error
		withHeld(1<<30, func() { held, heldErr = Parse("s.yaml", data, "") })
		withHeld(0, func() { text, textErr = Parse("s.yaml", data, "") })
		if errText(heldErr) != errText(wantErr) || errText(textErr) != errText(wantErr) {
			t.Errorf("%s: errors\n  ref: %s\n held: %s\n text: %s\n%s", name, errText(wantErr), errText(heldErr), errText(textErr), data)
			continue
		}
		if wantErr != nil {
			failed++
		} else {
			if text.File.Workload.Jobs != nil || text.File.Workload.held == nil || text.File.Workload.held.text == nil {
				t.Fatalf("%s: the list is not kept as text", name)
			}
			for pass := range 2 {
				hj, err1 := drainJobs(held)
				tj, err2 := drainJobs(text)
				if err1 != nil || err2 != nil || !reflect.DeepEqual(hj, want) || !reflect.DeepEqual(tj, want) {
					t.Errorf("%s, pass %d: jobs differ (%v, %v)", name, pass, err1, err2)
				}
			}
		}

		// The same list as a native YAML trace.
		path := filepath.Join(dir, fmt.Sprintf("t%d.yaml", trial))
		if err := os.WriteFile(path, []byte("jobs:\n"+jobs), 0o644); err != nil {
			t.Fatal(err)
		}
		sc := &Scenario{Machines: make([]Machine, racks*per)} // as the cluster above: one slot each
		for i := range sc.Machines {
			sc.Machines[i].Slots = 1
		}
		var refList []workload.Job
		specs, src, refErr := decodeJobsYAML(path, []byte("jobs:\n"+jobs))
		if refErr == nil {
			var order []int32
			if order, refErr = refCheckJobList(len(sc.Machines), specs, src, "jobs"); refErr == nil {
				for _, i := range order {
					refList = append(refList, specs[i].toJob())
				}
			}
		}
		ws, err := openNative(path, nil, sc)
		if errText(err) != errText(refErr) {
			t.Errorf("%s: native trace error\n  ref: %s\n text: %s", name, errText(refErr), errText(err))
			continue
		}
		if err == nil {
			var got []workload.Job
			for {
				j, ok, err := ws.Next()
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				got = append(got, *j)
			}
			if !reflect.DeepEqual(got, refList) {
				t.Errorf("%s: native trace jobs differ", name)
			}
		}
	}
	if failed < scenarios/10 || failed > scenarios/2 {
		t.Errorf("%d of %d scenarios fail to load: the faults are not exercised as meant", failed, scenarios)
	}
	t.Logf("%d scenarios, %d of them rejected", scenarios+len(fixed), failed)
}

// echoJSON is an echo as summary.json writes it, decoded.
func echoJSON(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestEchoThreshold: a list of MaxEchoedJobs jobs is echoed job by job, as
// before; one more job and the echo is the count and the file's SHA-256,
// everything else the same.
func TestEchoThreshold(t *testing.T) {
	at := busyScenario(MaxEchoedJobs)
	sc, err := Parse("busy.yaml", at, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.File.Workload.Jobs) != MaxEchoedJobs || sc.File.Workload.held != nil {
		t.Fatalf("a list of %d jobs is not held", MaxEchoedJobs)
	}
	a, err := json.Marshal(sc.File.Echo())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(sc.File)
	if string(a) != string(b) {
		t.Errorf("the echo of %d jobs is not the file", MaxEchoedJobs)
	}

	over := busyScenario(MaxEchoedJobs + 1)
	sc, err = Parse("busy.yaml", over, "")
	if err != nil {
		t.Fatal(err)
	}
	if sc.File.Workload.Jobs != nil || sc.File.Workload.held == nil {
		t.Fatalf("a list of %d jobs is held", MaxEchoedJobs+1)
	}
	got := echoJSON(t, sc.File.Echo())
	f, err := ParseFile("busy.yaml", over) // every job kept
	if err != nil {
		t.Fatal(err)
	}
	want := echoJSON(t, f)
	sum := sha256.Sum256(over)
	w := want["Workload"].(map[string]any)
	delete(w, "Jobs")
	w["JobCount"], w["FileSHA256"] = float64(MaxEchoedJobs+1), hex.EncodeToString(sum[:])
	if !reflect.DeepEqual(got, want) {
		t.Errorf("echo of %d jobs\n got: %v\nwant: %v", MaxEchoedJobs+1, got, want)
	}
	// The echo keeps File's field order.
	e, _ := json.Marshal(sc.File.Echo())
	if !strings.Contains(string(e), `"Knowledge":{`) || strings.Index(string(e), `"Workload":{"JobCount":1001,"FileSHA256":"`) < strings.Index(string(e), `"Knowledge"`) ||
		strings.Index(string(e), `"Scheduler"`) < strings.Index(string(e), `"Workload"`) {
		t.Errorf("echo out of order: %.400s", e)
	}
}

// TestFileEchoFields: fileEcho and workloadEcho stay in step with File and
// WorkloadSpec (a field added to File must be echoed).
func TestFileEchoFields(t *testing.T) {
	names := func(t reflect.Type, skip string) []string {
		var out []string
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && f.Name != skip {
				out = append(out, f.Name+" "+f.Type.String())
			}
		}
		return out
	}
	file, echo := names(reflect.TypeFor[File](), ""), names(reflect.TypeFor[fileEcho](), "")
	for i := range file {
		if strings.HasPrefix(file[i], "Workload ") {
			file[i] = "Workload scenario.workloadEcho"
		}
	}
	if !reflect.DeepEqual(file, echo) {
		t.Errorf("File %v\necho %v", file, echo)
	}
	w, we := names(reflect.TypeFor[WorkloadSpec](), "Jobs"), names(reflect.TypeFor[workloadEcho](), "")
	if !reflect.DeepEqual(w, we) {
		t.Errorf("WorkloadSpec %v\necho %v", w, we)
	}
}

// TestResolveLeftOutList: a File whose long list Parse left out encodes
// and resolves with every job, as `netsched validate --goodput` does.
func TestResolveLeftOutList(t *testing.T) {
	data := busyScenario(MaxEchoedJobs + 5)
	sc, err := Parse("busy.yaml", data, "")
	if err != nil {
		t.Fatal(err)
	}
	f := sc.File
	f.Network.Goodput = 0.9
	again, err := Resolve("busy.yaml", &f, "")
	if err != nil {
		t.Fatal(err)
	}
	a, err1 := drainJobs(sc)
	b, err2 := drainJobs(again)
	if err1 != nil || err2 != nil || len(a) != MaxEchoedJobs+5 || !reflect.DeepEqual(a, b) {
		t.Errorf("jobs differ after Resolve (%v, %v, %d, %d)", err1, err2, len(a), len(b))
	}
	full, err := ParseFile("busy.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	e1, _ := Encode(&sc.File)
	e2, _ := Encode(full)
	if string(e1) != string(e2) {
		t.Error("Encode of a left-out list differs from the full file's")
	}
}

// TestLeftOutWholeList: a long list that the cutting leaves to the library
// (here because of an & in a comment) is left out of the File and echoed
// in the same way, and gives the same jobs.
func TestLeftOutWholeList(t *testing.T) {
	cut := busyScenario(MaxEchoedJobs + 1)
	whole := append([]byte("# & makes the cutting give up\n"), cut...)
	if _, ok := cutList(whole, "workload", "jobs"); ok {
		t.Fatal("the list is cut")
	}
	a, err := Parse("busy.yaml", cut, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse("busy.yaml", whole, "")
	if err != nil {
		t.Fatal(err)
	}
	if l := b.File.Workload.held; b.File.Workload.Jobs != nil || l == nil || l.text != nil || len(l.specs) != MaxEchoedJobs+1 {
		t.Fatal("the list decoded whole is not left out")
	}
	ea, eb := echoJSON(t, a.File.Echo()), echoJSON(t, b.File.Echo())
	sum := sha256.Sum256(whole)
	if w := eb["Workload"].(map[string]any); w["JobCount"] != float64(MaxEchoedJobs+1) || w["FileSHA256"] != hex.EncodeToString(sum[:]) {
		t.Errorf("echo %v", w)
	}
	ea["Workload"].(map[string]any)["FileSHA256"] = eb["Workload"].(map[string]any)["FileSHA256"]
	if !reflect.DeepEqual(ea, eb) {
		t.Errorf("echoes differ\n%v\n%v", ea, eb)
	}
	ja, err1 := drainJobs(a)
	jb, err2 := drainJobs(b)
	if err1 != nil || err2 != nil || !reflect.DeepEqual(ja, jb) {
		t.Errorf("jobs differ (%v, %v)", err1, err2)
	}
}

// ExplicitJobs gives the jobs of a long list, which Parse leaves out of
// Jobs, as it gives a short one's.
func TestExplicitJobsOfLongList(t *testing.T) {
	for _, n := range []int{3, MaxEchoedJobs + 5} {
		var b strings.Builder
		b.WriteString("cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbps}\nworkload:\n  jobs:\n")
		for i := range n {
			fmt.Fprintf(&b, "    - {id: j%d, arrival: %ds, stages: [{id: m, tasks: [{compute: 1s}]}]}\n", i, n-i)
		}
		b.WriteString("scheduler: fifo\n")
		sc, err := Parse("s.yaml", []byte(b.String()), "")
		if err != nil {
			t.Fatal(err)
		}
		if long := n > MaxEchoedJobs; long != (sc.File.Workload.Jobs == nil) {
			t.Fatalf("%d jobs: Jobs is nil = %v", n, sc.File.Workload.Jobs == nil)
		}
		jobs, err := sc.File.Workload.ExplicitJobs()
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != n {
			t.Fatalf("%d jobs: ExplicitJobs gave %d", n, len(jobs))
		}
		for i, j := range jobs {
			if want := fmt.Sprintf("j%d", i); j.ID != want || float64(j.Arrival) != float64(n-i) {
				t.Fatalf("%d jobs: job %d is %s at %v, want %s at %ds (file order)", n, i, j.ID, j.Arrival, want, n-i)
			}
		}
	}
}
