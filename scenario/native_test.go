package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/netsched/netsched/workload"
)

func fullJobs(t *testing.T) []JobSpec {
	t.Helper()
	sc, err := Load("testdata/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return sc.File.Workload.Jobs
}

func TestJobsYAMLRoundTrip(t *testing.T) {
	jobs := fullJobs(t)
	var buf bytes.Buffer
	if err := EncodeJobsYAML(&buf, jobs); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "jobs:\n  - id: late\n") {
		t.Errorf("unexpected layout:\n%s", buf.String())
	}
	back, err := DecodeJobsYAML("jobs.yaml", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(jobs, back); diff != "" {
		t.Errorf("(-before +after):\n%s", diff)
	}
}

func TestJobsJSONLRoundTrip(t *testing.T) {
	jobs := fullJobs(t)
	var buf bytes.Buffer
	if err := EncodeJobsJSONL(&buf, jobs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(jobs) {
		t.Fatalf("%d lines for %d jobs:\n%s", len(lines), len(jobs), buf.String())
	}
	for i, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Errorf("line %d is not JSON: %s", i+1, l)
		}
	}
	back, err := DecodeJobsJSONL("jobs.jsonl", &buf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(jobs, back); diff != "" {
		t.Errorf("(-before +after):\n%s", diff)
	}
}

// FromJobs inverts the file-to-model conversion (rates up to rounding).
func TestFromJobs(t *testing.T) {
	specs := fullJobs(t)
	var jobs []workload.Job
	for i := range specs {
		jobs = append(jobs, specs[i].toJob())
	}
	var again []workload.Job
	for _, js := range FromJobs(jobs) {
		again = append(again, js.toJob())
	}
	if diff := cmp.Diff(jobs, again, cmpopts.EquateApprox(1e-15, 0)); diff != "" {
		t.Errorf("(-before +after):\n%s", diff)
	}
	// Job without pins, deps or generator; share 1 is left out, share 0
	// is written.
	got := FromJobs([]workload.Job{{ID: "j", Arrival: 1.5, Stages: []workload.Stage{{ID: "s", Tasks: []workload.Task{{Share: 1, Compute: 2, Pin: workload.NoPin}, {Compute: 3, Pin: workload.NoPin}}}}}})
	zero := 0.0
	want := []JobSpec{{ID: "j", Arrival: 1.5, Stages: []StageSpec{{ID: "s", Tasks: []TaskSpec{{Compute: 2}, {Share: &zero, Compute: 3}}}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

const twoMachines = "cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 1Gbps}\nscheduler: fifo\n"

// openTrace writes a trace file and opens it through a scenario.
func openTrace(t *testing.T, name, content string) (workload.Source, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := Parse("s.yaml", []byte(twoMachines+"workload: {trace: "+name+", format: native}\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	src, err := sc.OpenWorkload()
	if err != nil {
		t.Fatal(err)
	}
	return src, path
}

func drain(src workload.Source) ([]string, error) {
	jobs, err := workload.ReadAll(src)
	var ids []string
	for _, j := range jobs {
		ids = append(ids, j.ID)
	}
	return ids, err
}

func TestNativeJSONLSource(t *testing.T) {
	src, _ := openTrace(t, "t.jsonl", `{"id": "a", "arrival": "1s", "stages": [{"id": "m", "count": 2, "input": "64MB"}]}

{"id": "b", "arrival": 2, "after": ["a"], "stages": [{"id": "m", "tasks": [{"pin": 1}]}]}
`)
	ids, err := drain(src)
	if err != nil || !cmp.Equal(ids, []string{"a", "b"}) {
		t.Errorf("got %v, %v", ids, err)
	}

	for _, c := range []struct{ name, content, want string }{
		{"unsorted", `{"id": "a", "arrival": "5s", "stages": [{"id": "m", "tasks": [{}]}]}` + "\n" +
			`{"id": "b", "arrival": "1s", "stages": [{"id": "m", "tasks": [{}]}]}`,
			`%s:2:24: arrival: arrival 1s is earlier than the previous job's 5s; a trace must be sorted by arrival`},
		{"pin", `{"id": "a", "stages": [{"id": "m", "tasks": [{}]}]}` + "\n\n" + `{"id": "b", "stages": [{"id": "m", "tasks": [{"pin": 7}]}]}`,
			`%s:3:54: stages[0].tasks[0].pin: pin 7 is not a machine index (cluster has machines 0..1)`},
		{"syntax", `{"id": "a", "stages": [{"id": "m", "tasks": [{}]}]}` + "\n" + `{"id": "b", "stages": [`,
			`%s:2:23: sequence end token ']' not found`},
		{"unknown key", `{"id": "a", "stage": []}`,
			`%s:1:13: stage: unknown key "stage"; did you mean "stages"? (expected one of: id, arrival, user, queue, after, recurring, class, stages)`},
		{"forward dependency", `{"id": "a", "after": ["b"], "stages": [{"id": "m", "tasks": [{}]}]}`,
			`%s:1:23: after[0]: job "b" has not appeared before job "a"; a job may only depend on jobs listed before it`},
		{"key case", `{"ID": "a", "stages": [{"id": "m", "tasks": [{}]}]}`,
			`%s:1:2: ID: unknown key "ID"; did you mean "id"? (expected one of: id, arrival, user, queue, after, recurring, class, stages)`},
		{"duplicate", `{"id": "a", "stages": [{"id": "m", "tasks": [{}]}]}` + "\n" + `{"id": "a", "stages": [{"id": "m", "tasks": [{}]}]}`,
			`%s:2:8: id: job id "a" is used twice (also at line 1)`},
	} {
		src, path := openTrace(t, "t.jsonl", c.content)
		_, err := drain(src)
		if want := fmt.Sprintf(c.want, path); err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, want)
		}
	}
}

func TestNativeYAMLSource(t *testing.T) {
	src, _ := openTrace(t, "t.yml", "jobs:\n  - {id: late, arrival: 9s, stages: [{id: m, tasks: [{}]}]}\n  - {id: early, stages: [{id: m, tasks: [{}]}]}\n")
	ids, err := drain(src)
	if err != nil || !cmp.Equal(ids, []string{"early", "late"}) {
		t.Errorf("got %v, %v", ids, err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "t.yaml")
	if err := os.WriteFile(path, []byte("jobs:\n  - {id: a, stages: [{id: m, after: x, tasks: [{}]}]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := Parse("s.yaml", []byte(twoMachines+"workload: {trace: t.yaml}\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = sc.OpenWorkload()
	if want := path + `:2:37: jobs[0].stages[0].after[0]: unknown stage "x" (job "a" has: [m])`; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestNativeRejectsOtherExtensions(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := Parse("s.yaml", []byte(twoMachines+"workload: {trace: t.csv}\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.OpenWorkload(); err == nil || !strings.Contains(err.Error(), "must end in .yaml, .yml or .jsonl") {
		t.Errorf("got %v", err)
	}
}

// The encoding/json fast path and the YAML decoder read records alike.
func TestJSONLFastPathMatchesYAML(t *testing.T) {
	var buf bytes.Buffer
	if err := EncodeJobsJSONL(&buf, fullJobs(t)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	// Also hand-written forms: numbers for sizes, a bare dependency.
	lines = append(lines, `{"id": "h", "arrival": 2.5, "stages": [{"id": "m", "count": 2, "input": 1024, "compute": {"dist": "uniform", "min": "1s", "max": 3}}, {"id": "r", "after": "m", "tasks": [{"output": 5, "pin": 0}]}]}`)
	// Forms the custom types decode without the YAML library,
	// and forms they hand to it.
	for _, stage := range []string{
		`"after": ["a", "b"]`, `"after": []`, `"after": null`, `"after": 1`, `"after": [1, "b"]`, `"after": "a"`,
		`"after": [{"stage": "a", "slowstart": 0.5}]`, `"after": ["a", {"stage": "b", "pattern": "broadcast"}]`,
		`"count": 2, "compute": "1.5s", "input": "64MB", "share": 2`, `"count": 2, "compute": 1.5e1, "output": "1e3"`,
		`"count": 2, "share": "3", "output": -0`, `"count": 2, "compute": {"dist": "const", "value": "1s"}`,
	} {
		lines = append(lines, `{"id": "f", "stages": [{"id": "a", "tasks": [{}]}, {"id": "b", "tasks": [{}]}, {"id": "c", `+stage+`, "tasks": [{}]}]}`)
	}
	final := len(lines) - 1
	for i, l := range lines {
		var fast JobSpec
		fastErr := fastDecodeJob([]byte(l), &fast)
		src, err := parseDocument("t.jsonl", []byte(l))
		if err != nil {
			t.Fatal(err)
		}
		var slow JobSpec
		if err := decodeNode(src, src.body, &slow); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if fastErr == nil {
			if diff := cmp.Diff(slow, fast); diff != "" {
				t.Errorf("line %d (-yaml +json):\n%s", i+1, diff)
			}
		} else if i < final-12 {
			t.Errorf("line %d: the fast path rejects what EncodeJobsJSONL wrote: %v", i+1, fastErr)
		}
	}
}

func TestPlainKeys(t *testing.T) {
	for text, ok := range map[string]bool{
		`{"id": "A B", "stages": [{"output_ratio": 1}]}`: true,
		`{"Id": "a"}`:                        false,
		`{"id": "x", "tasks": [{"pIn": 1}]}`: false,
		`{"i\u0064": "a"}`:                   false,
		`{"id": "\"quoted\": yes"}`:          true,
		`{"": 1}`:                            false,
		`{"id": "a", "user": ""}`:            false,
	} {
		if err := plainKeys([]byte(text)); (err == nil) != ok {
			t.Errorf("%s: %v", text, err)
		}
	}
}

// An empty string is refused by the JSONL fast path as by the YAML
// path, with the same message at the same place.
func TestEmptyStringsRefusedOnBothPaths(t *testing.T) {
	for _, field := range []string{`"id": ""`, `"id": "a", "user": ""`, `"id": "a", "queue": ""`, `"id": "a", "class": ""`, `"id": "a", "after": [""]`} {
		record := `{` + field + `, "stages": [{"id": "m", "count": 1}]}`
		_, jsonErr := DecodeJobsJSONL("t.jsonl", strings.NewReader(record+"\n"))
		_, yamlErr := DecodeJobsYAML("t.yaml", []byte("jobs:\n- "+record+"\n"))
		if jsonErr == nil || yamlErr == nil || !strings.Contains(jsonErr.Error(), "expected a non-empty string") {
			t.Fatalf("%s: JSONL %v; YAML %v; want both refused", field, jsonErr, yamlErr)
		}
		// The same column: the YAML record starts 2 columns later, a line lower.
		if j, y := jsonErr.(*Error), yamlErr.(*Error); j.Msg != y.Msg || j.Column+2 != y.Column || y.Line != 2 {
			t.Errorf("%s: JSONL %v; YAML %v; want the same message and place", field, jsonErr, yamlErr)
		}
	}
}

// devZero links name in a new directory to /dev/zero, an endless input.
func devZero(t *testing.T, name string) (dir, path string) {
	t.Helper()
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir = t.TempDir()
	path = filepath.Join(dir, name)
	if err := os.Symlink("/dev/zero", path); err != nil {
		t.Skip(err)
	}
	return dir, path
}

// Endless input stops at a limit of the shared reader, naming the file
// and the line, before it can exhaust memory.
func TestEndlessInputIsRejected(t *testing.T) {
	_, path := devZero(t, "s.yaml")
	if _, err := Load(path); err == nil || err.Error() != path+":1: a NUL byte: not a text file" {
		t.Errorf("scenario: got %v", err)
	}
	for _, name := range []string{"t.jsonl", "t.yaml"} {
		dir, path := devZero(t, name)
		sc, err := Parse("s.yaml", []byte(twoMachines+"workload: {trace: "+name+"}\n"), dir)
		if err != nil {
			t.Fatal(err)
		}
		_, err = sc.OpenWorkload()
		if err == nil {
			_, err = drain(mustSource(t, sc))
		}
		if err == nil || err.Error() != path+":1: a NUL byte: not a text file" {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func mustSource(t *testing.T, sc *Scenario) workload.Source {
	src, err := sc.OpenWorkload()
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func TestUTF16ScenarioIsNamed(t *testing.T) {
	text := twoMachines + "workload: {jobs: [{id: a, stages: [{id: m, tasks: [{}]}]}]}\n"
	utf16 := []byte{0xFF, 0xFE}
	for _, c := range text {
		utf16 = append(utf16, byte(c), 0)
	}
	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, utf16, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if want := path + ":1: the file is UTF-16LE text; netsched reads UTF-8 (convert it, e.g. iconv -f UTF-16LE -t UTF-8)"; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// A task pinned to a machine without slots would stall the run with no
// line to go by; it is an error at its pin when the file is read.
func TestPinToMachineWithoutSlots(t *testing.T) {
	text := "cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 2, nic: 1MB/s, machines: [{index: 1, slots: 0}]}\n" +
		"workload:\n  jobs:\n    - {id: A, stages: [{id: map, tasks: [{compute: 1s, pin: 0}, {compute: 1s, pin: 1}]}]}\n"
	_, err := Parse("s.yaml", []byte(text), "")
	if want := "s.yaml:4:84: workload.jobs[0].stages[0].tasks[1].pin: machine 1 has slots: 0, so a task pinned to it could never run"; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
