package jobmodel

import (
	"bufio"
	"fmt"
	"io"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/workload"
)

// WriteNative writes every job of src in netsched's native trace format
// (what `netsched trace convert` produces and the "native" format reads):
// JSONL streams one job per line; YAML collects the list first. It returns
// the number of jobs written.
func WriteNative(w io.Writer, src workload.Source, jsonl bool) (int, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	var all []workload.Job
	n := 0
	for {
		j, ok, err := src.Next()
		if err != nil {
			return n, err
		}
		if !ok {
			break
		}
		n++
		if !jsonl {
			all = append(all, *j)
			continue
		}
		if err := scenario.EncodeJobsJSONL(bw, scenario.FromJobs([]workload.Job{*j})); err != nil {
			return n, fmt.Errorf("job %s: %w", j.ID, err)
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("the workload has no jobs")
	}
	if !jsonl {
		if err := scenario.EncodeJobsYAML(bw, scenario.FromJobs(all)); err != nil {
			return n, err
		}
	}
	return n, bw.Flush()
}
