package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// explicitTasks is a native YAML trace of one job whose stage lists n
// tasks one by one, after lead blank lines.
func explicitTasks(lead, n int) string {
	return strings.Repeat("\n", lead) + "jobs:\n  - id: j\n    stages:\n      - id: m\n        tasks:\n" +
		strings.Repeat("          - {compute: 1s, output: 2MB}\n", n)
}

func wantTreeLimit(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "above the limit of 4 MiB") {
		t.Fatalf("err = %v, want %q and the 4 MiB tree limit", err, want)
	}
}

// A job too large for one YAML tree is refused at its line before the
// library parses it (it took about 10 KB per task: 1 GB for 100,000).
func TestJobAboveTreeLimitIsRefusedAtItsLine(t *testing.T) {
	tasks := MaxTreeBytes/24 + 1 // 24 bytes per task besides spaces and line ends
	_, err := DecodeJobsYAML("big.yaml", []byte(explicitTasks(2, tasks)))
	wantTreeLimit(t, err, "big.yaml:4:1: this job holds")
}

// A document read whole (an anchor keeps the list from being cut) is
// refused at line 1.
func TestDocumentAboveTreeLimitIsRefused(t *testing.T) {
	doc := "jobs:\n  - &a {id: j, stages: [{id: m, count: 1}]}\n" + strings.Repeat("# padding padding padding\n", MaxTreeBytes/20)
	_, err := DecodeJobsYAML("whole.yaml", []byte(doc))
	wantTreeLimit(t, err, "whole.yaml:1:1: this YAML document holds")
}

// Below the limit, and with any number of empty lines (a cut list's rest
// keeps one per line), the same file reads.
func TestTreeLimitCountsNeitherSpacesNorLineEnds(t *testing.T) {
	jobs, err := DecodeJobsYAML("ok.yaml", []byte(explicitTasks(MaxTreeBytes+1, 10)))
	if err != nil || len(jobs) != 1 || len(jobs[0].Stages[0].Tasks) != 10 {
		t.Fatalf("got %d jobs, err %v; want one job of 10 tasks", len(jobs), err)
	}
}

// A JSONL record past the limit is read by the JSON decoder only: one
// that is not plain JSON gets that decoder's error at its line.
func TestLongJSONLRecordIsReadAsJSONOnly(t *testing.T) {
	task := `{"compute": "1s", "output": "2MB"},`
	tasks := strings.Repeat(task, MaxTreeBytes/30) // 34 bytes each besides spaces
	line := fmt.Sprintf(`{"id": "j", "stages": [{"id": "m", "tasks": [%s {compute: 1s}]}]}`, tasks)
	_, err := DecodeJobsJSONL("big.jsonl", strings.NewReader("\n"+line+"\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "big.jsonl:2:1: invalid character 'c'") || !strings.Contains(err.Error(), "read as plain JSON only") {
		t.Fatalf("err = %v, want the JSON decoder's error at line 2", err)
	}
}
