package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// parseBoth parses data with job lists cut into items and as one tree.
func parseBoth(name string, data []byte) (cut, whole *Scenario, cutErr, wholeErr error) {
	cut, cutErr = Parse(name, data, "")
	cutLists = false
	defer func() { cutLists = true }()
	whole, wholeErr = Parse(name, data, "")
	return
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// checkSame fails unless cutting the job list changes nothing: the same
// error, or the same file and jobs.
func checkSame(t *testing.T, name string, data []byte) {
	t.Helper()
	cut, whole, cerr, werr := parseBoth(name, data)
	if errText(cerr) != errText(werr) {
		t.Errorf("%s: error\n  cut: %s\nwhole: %s", name, errText(cerr), errText(werr))
		return
	}
	if cerr != nil {
		if cut != nil {
			t.Errorf("%s: a scenario returned with the error", name)
		}
		return
	}
	if !reflect.DeepEqual(cut.File, whole.File) {
		t.Errorf("%s: files differ", name)
	}
	cj, err1 := allJobs(cut)
	wj, err2 := allJobs(whole)
	if err1 != nil || err2 != nil || !reflect.DeepEqual(cj, wj) {
		t.Errorf("%s: jobs differ (%v, %v)", name, err1, err2)
	}
}

func allJobs(sc *Scenario) (any, error) {
	if sc.OpenWorkload == nil {
		return nil, nil
	}
	src, err := sc.OpenWorkload()
	if err != nil {
		return nil, err
	}
	var out []any
	for {
		j, ok, err := src.Next()
		if err != nil || !ok {
			return out, err
		}
		out = append(out, *j)
	}
}

// TestCutListMatchesWhole decodes every scenario of testdata both ways.
func TestCutListMatchesWhole(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.yaml")
	more, _ := filepath.Glob("testdata/*.yaml")
	examples, _ := filepath.Glob("../examples/*.yaml")
	files = append(append(files, more...), examples...)
	cuts := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := cutList(data, "workload", "jobs"); ok {
			cuts++
		}
		checkSame(t, path, data)
	}
	if cuts < 20 {
		t.Errorf("only %d of %d files have a list that is cut", cuts, len(files))
	}
}

// TestCutListErrors breaks one job in the middle of a long list in many
// ways: each error names the same line, column and path as decoding the
// whole document.
func TestCutListErrors(t *testing.T) {
	const n, bad = 200, 117
	good := string(busyScenario(n))
	lines := strings.Split(good, "\n")
	line := lines[5+bad] // the job on line 5+bad+1
	block := "    - id: j117\n      arrival: 3s\n      stages:\n        - id: m\n          tasks: [{compute: 1s, output: 10MB}]\n        - id: r\n          after: m\n          tasks:\n            - {compute: 1s}\n"
	for _, tc := range []struct{ name, from, to string }{
		{"unknown key", "arrival:", "arival:"},
		{"unknown task key", "compute: 1s, output", "compute: 1s, outptu"},
		{"bad duration", "compute: 1s,", "compute: fast,"},
		{"bad size", "output: 10MB", "output: 10XB"},
		{"negative size", "output: 10MB", "output: -10MB"},
		{"string for number", "compute: 1s, output: 10MB", "compute: 1s, share: lots"},
		{"float for int", "tasks: [{compute: 1s, output: 10MB}]", "count: 1.5, compute: 1s"},
		{"no id", "id: j117, ", ""},
		{"duplicate id", "id: j117,", "id: j3,"},
		{"unknown job", "arrival:", "after: [nope], arrival:"},
		{"later job", "arrival:", "after: [j199], arrival: 0s, x:"},
		{"self dependency", "arrival:", "after: [j117], arrival:"},
		{"unknown stage", "after: m", "after: q"},
		{"no stages", ", stages: [{id: m, tasks: [{compute: 1s, output: 10MB}]}, {id: r, after: m, tasks: [{compute: 1s}]}]", ""},
		{"empty stage", "tasks: [{compute: 1s}]", "tasks: []"},
		{"pin", "tasks: [{compute: 1s}]", "tasks: [{compute: 1s, pin: 999}]"},
		{"syntax", "stages: [", "stages: [[ "},
		{"unclosed", "}]}]}", "}]}"},
		{"scalar item", line[6:], "just text"},
		{"null item", line[6:], ""},
		{"nested list", line[6:], "- {id: x}"},
		{"duplicate key", "id: j117,", "id: j117, id: j118,"},
		{"anchor", "id: j117,", "id: &a j117,"},
		{"block item", line[4:], block[4:]},
		{"block item unknown key", line[4:], strings.Replace(block[4:], "arrival", "arival", 1)},
		{"block item bad value", line[4:], strings.Replace(block[4:], "{compute: 1s}", "{compute: 1x}", 1)},
		{"block item bad indent", line[4:], strings.Replace(block[4:], "      stages", "     stages", 1)},
		{"comment", line[4:], "# a comment\n    " + line[4:]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(line, tc.from) {
				t.Fatalf("%q not in %q", tc.from, line)
			}
			ls := append([]string(nil), lines...)
			ls[5+bad] = strings.Replace(line, tc.from, tc.to, 1)
			checkSame(t, "busy.yaml", []byte(strings.Join(ls, "\n")))
		})
	}
}

// TestCutListForms covers the layouts the cutting handles and those it
// leaves to the library; both decode as the whole document does.
func TestCutListForms(t *testing.T) {
	head := "cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbps}\n"
	job := func(id string) string { return "{id: " + id + ", stages: [{id: m, tasks: [{compute: 1s}]}]}" }
	for name, doc := range map[string]string{
		"compact":          head + "workload:\n  jobs:\n  - " + job("a") + "\n  - " + job("b") + "\nscheduler: fifo\n",
		"before":           "workload:\n  jobs:\n    - " + job("a") + "\n\n    # two\n    - " + job("b") + "\n  # end\n\n" + head + "scheduler: fifo\n",
		"no newline":       head + "scheduler: fifo\nworkload:\n  jobs:\n    - " + job("a"),
		"trace too":        head + "scheduler: fifo\nworkload:\n  trace: x.jsonl\n  jobs:\n    - " + job("a") + "\n",
		"options":          head + "scheduler: fifo\nworkload:\n  jobs:\n    - " + job("a") + "\n  options: {a: 1}\n",
		"later unknown":    head + "workload:\n  jobs:\n    - {id: a, stagse: []}\nscheduler: {nmae: fifo}\n",
		"earlier unknown":  "cluster: {rack: 1}\nworkload:\n  jobs:\n    - {id: a, stagse: []}\nscheduler: fifo\n",
		"later bad":        head + "workload:\n  jobs:\n    - {id: a, arrival: x, stages: []}\nscheduler: fifo\noutput: {window: y}\n",
		"earlier bad":      "cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbs}\nworkload:\n  jobs:\n    - {id: a, arrival: x, stages: []}\nscheduler: fifo\n",
		"twice":            head + "scheduler: fifo\nworkload:\n  jobs:\n    - " + job("a") + "\n  jobs:\n    - " + job("b") + "\n",
		"flow list":        head + "scheduler: fifo\nworkload:\n  jobs: [" + job("a") + "]\n",
		"document":         "---\n" + head + "scheduler: fifo\nworkload:\n  jobs:\n    - " + job("a") + "\n",
		"tab":              head + "scheduler: fifo\nworkload:\n  jobs:\n    - " + job("a") + "\t\n",
		"crlf":             strings.ReplaceAll(head+"scheduler: fifo\nworkload:\n  jobs:\n    - "+job("a")+"\n", "\n", "\r\n"),
		"multi-line":       head + "scheduler: fifo\nworkload:\n  jobs:\n    - {id: a,\n       stages: [{id: m, tasks: [{compute: 1s}]}]}\n    - " + job("b") + "\n",
		"bad then syntax":  head + "scheduler: fifo\nworkload:\n  jobs:\n    - {id: a, stagse: []}\n    - {id: b, stages: [}\n",
		"bad then unknown": head + "scheduler: fifo\nworkload:\n  jobs:\n    - {id: a, arrival: x, stages: []}\n    - {id: b, stagse: []}\n",
		"deep":             head + "scheduler: fifo\nworkload:\n  jobs:\n    - " + strings.Repeat("[", 70) + "\n",
	} {
		t.Run(name, func(t *testing.T) { checkSame(t, name+".yaml", []byte(doc)) })
	}
}

// TestCutNativeYAML checks the native YAML trace both ways.
func TestCutNativeYAML(t *testing.T) {
	var b strings.Builder
	b.WriteString("jobs:\n")
	for i := range 50 {
		fmt.Fprintf(&b, "  - {id: j%d, arrival: %ds, stages: [{id: m, tasks: [{compute: 1s}]}]}\n", i, 50-i)
	}
	for _, doc := range []string{b.String(), strings.Replace(b.String(), "compute: 1s}]}]}\n  - {id: j31", "compute: 1z}]}]}\n  - {id: j31", 1)} {
		cut, _, cerr := decodeJobsYAML("t.yaml", []byte(doc))
		cutLists = false
		whole, _, werr := decodeJobsYAML("t.yaml", []byte(doc))
		cutLists = true
		if errText(cerr) != errText(werr) || !reflect.DeepEqual(cut, whole) {
			t.Errorf("cut %v (%d jobs), whole %v (%d jobs)", cerr, len(cut), werr, len(whole))
		}
	}
}

// decodeItemYAML decodes one flow item with the YAML library.
func decodeItemYAML(text string) (JobSpec, error) {
	var js JobSpec
	src, err := parseDocument("t.yaml", []byte(text))
	if err != nil {
		return js, err
	}
	if src.body == nil {
		return js, fmt.Errorf("empty")
	}
	return js, decodeNode(src, src.body, &js)
}

// TestFlowJobMatchesLibrary mutates flow-style jobs at random: whenever
// the hand decoder accepts one, the YAML library must decode the same job.
func TestFlowJobMatchesLibrary(t *testing.T) {
	seeds := []string{
		"{id: j0, arrival: 2.687285s, stages: [{id: m, tasks: [{compute: 1s, output: 10MB}]}, {id: r, after: m, tasks: [{compute: 1s}]}]}",
		"{id: a-1, user: u_2, queue: q.x, class: big, recurring: true, after: [b, c], arrival: 3, stages: [{id: m, count: 12, input: 64MB, compute: 2s, output: 1GB, share: 2, rate: 10MB/s, output_ratio: 0.5, tasks: [{input: 1KiB, share: 1.5, compute: 0.5, rate: 1Gbps, output: 7, output_ratio: 2, pin: 3}]}, {id: r, after: [m, x], tasks: [{compute: 100ms}]}]}",
		"{id: No, arrival: 1h, stages: [{id: y, tasks: [{output: 1e3}]}, {id: inf, after: null, tasks: [{pin: 010}]}]}",
	}
	alphabet := []byte("{}[],: -_.#'\"&*!|>%@`0123456789aeimnorstuxyBGKMNOY/\t\n")
	accepted, rejected := 0, 0
	r := newRand()
	for trial := 0; trial < 60000; trial++ {
		b := []byte(seeds[trial%len(seeds)])
		for range 1 + r.IntN(2)*r.IntN(3) {
			i := r.IntN(len(b))
			switch r.IntN(3) {
			case 0:
				b[i] = alphabet[r.IntN(len(alphabet))]
			case 1:
				b = append(b[:i], b[i+1:]...)
			default:
				b = append(b[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, b[i:]...)...)
			}
		}
		var fast JobSpec
		if !decodeFlowJob(append(b, '\n'), &fast) {
			rejected++
			continue
		}
		accepted++
		slow, err := decodeItemYAML(string(b))
		if err != nil {
			t.Errorf("%s: the hand decoder accepts what the library rejects: %v", b, err)
			continue
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s: decoded differently\nhand: %+v\n lib: %+v", b, fast, slow)
		}
	}
	for _, s := range seeds[:2] {
		var fast JobSpec
		if !decodeFlowJob([]byte(s+"\n"), &fast) {
			t.Errorf("%s: not decoded by hand", s)
		}
	}
	t.Logf("%d mutants decoded by hand, %d left to the library", accepted, rejected)
}

// TestBadJobInLongList breaks job 11111 of 20,000: the message names its
// line, column and field as decoding the whole document did (the expected
// texts were taken from that decoding), and nothing is returned with it.
func TestBadJobInLongList(t *testing.T) {
	lines := strings.Split(string(busyScenario(20000)), "\n")
	for _, tc := range []struct{ from, to, want string }{
		{"compute: 1s, output", "compute: fast, output", `busy.yaml:11117:76: workload.jobs[11111].stages[0].tasks[0].compute: duration "fast": expected a number of seconds or a value like 1.5s, 200ms, 2h`},
		{"arrival:", "arival:", `busy.yaml:11117:20: workload.jobs[11111].arival: unknown key "arival"; did you mean "arrival"? (expected one of: id, arrival, user, queue, after, recurring, class, stages)`},
		{"after: m", "after: q", `busy.yaml:11117:112: workload.jobs[11111].stages[1].after[0]: unknown stage "q" (job "j11111" has: [m r])`},
		{"arrival:", "after: [j19999], arrival: 0s, class:", `busy.yaml:11117:28: workload.jobs[11111].after[0]: job "j19999" arrives at 9.9651s, after job "j11111" (0s); a job may only depend on jobs that arrive no later`},
	} {
		ls := append([]string(nil), lines...)
		ls[5+11111] = strings.Replace(ls[5+11111], tc.from, tc.to, 1)
		sc, err := Parse("busy.yaml", []byte(strings.Join(ls, "\n")), "")
		if sc != nil || errText(err) != tc.want {
			t.Errorf("got %v, %v\nwant %s", sc != nil, err, tc.want)
		}
	}
}

// FuzzCutList: cutting a job list changes no result and no message.
func FuzzCutList(f *testing.F) {
	f.Add(busyScenario(4))
	f.Add([]byte("jobs:\n  - {id: a, stages: [{id: m, tasks: [{compute: 1s}]}]}\n"))
	bad, _ := filepath.Glob("testdata/bad/*.yaml")
	for _, p := range bad {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSame(t, "f.yaml", data)
		cut, _, cerr := decodeJobsYAML("t.yaml", data)
		cutLists = false
		whole, _, werr := decodeJobsYAML("t.yaml", data)
		cutLists = true
		if errText(cerr) != errText(werr) || !reflect.DeepEqual(cut, whole) {
			t.Errorf("native: cut %v, whole %v", cerr, werr)
		}
	})
}

// TestCutEncodedList: Resolve parses Encode's block-style list; cut, it
// decodes as the whole.
func TestCutEncodedList(t *testing.T) {
	f, err := Decode("busy.yaml", busyScenario(300))
	if err != nil {
		t.Fatal(err)
	}
	data, err := Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	sl, ok := cutList(data, "workload", "jobs")
	if !ok || len(sl.items) != 300 {
		t.Fatalf("the encoded list is not cut (%v)", ok)
	}
	checkSame(t, "enc.yaml", data)
	bad := strings.Replace(string(data), "compute: 1s", "compute: 1q", 250)
	checkSame(t, "enc.yaml", []byte(bad))
}
