package experiment

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is part Index (0-based) of Count: it runs the cells whose index
// modulo Count is Index. The zero value is the whole sweep.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Whole reports whether the shard is the entire sweep.
func (s Shard) Whole() bool { return s.Count <= 1 }

func (s Shard) String() string {
	if s.Whole() {
		return "0/1"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// suffix names a shard's files: "-2-of-8".
func (s Shard) suffix() string { return fmt.Sprintf("-%d-of-%d", s.Index, s.Count) }

func (s Shard) owns(cellIndex int) bool { return s.Whole() || cellIndex%s.Count == s.Index }

// ParseShard reads "i/n" with 0 <= i < n.
func ParseShard(text string) (Shard, error) {
	a, b, ok := strings.Cut(text, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: expected i/n, like 0/4 (shards are numbered from 0)", text)
	}
	return newShard(i, n, "shard "+text)
}

func newShard(i, n int, what string) (Shard, error) {
	if n < 1 {
		return Shard{}, fmt.Errorf("%s: the number of shards must be at least 1, got %d", what, n)
	}
	if i < 0 || i >= n {
		return Shard{}, fmt.Errorf("%s: index %d is outside 0..%d (shards are numbered from 0)", what, i, n-1)
	}
	return Shard{Index: i, Count: n}, nil
}

// ShardFromEnv finds the shard a batch system assigned to this process:
//
//   - Kubernetes Indexed Job: JOB_COMPLETION_INDEX (0-based); the count
//     comes from count (the --shards flag) or NETSCHED_SHARDS;
//   - Slurm job array: SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN
//     (arrays may start at 1), of SLURM_ARRAY_TASK_COUNT;
//   - AWS Batch array job: AWS_BATCH_JOB_ARRAY_INDEX (0-based), of count,
//     NETSCHED_SHARDS or AWS_BATCH_JOB_ARRAY_SIZE.
//
// ok is false when none is set (the whole sweep runs). count 0 means "not
// given".
func ShardFromEnv(getenv func(string) string, count int) (s Shard, ok bool, err error) {
	countFrom := func(vars ...string) (int, error) {
		if count > 0 {
			return count, nil
		}
		for _, v := range vars {
			if t := getenv(v); t != "" {
				n, err := strconv.Atoi(t)
				if err != nil {
					return 0, fmt.Errorf("%s=%q is not an integer", v, t)
				}
				return n, nil
			}
		}
		return 0, fmt.Errorf("the number of shards is unknown: pass --shards N or set %s", strings.Join(vars, " or "))
	}
	intVar := func(v string) (int, error) {
		n, err := strconv.Atoi(getenv(v))
		if err != nil {
			return 0, fmt.Errorf("%s=%q is not an integer", v, getenv(v))
		}
		return n, nil
	}
	switch {
	case getenv("JOB_COMPLETION_INDEX") != "":
		i, err := intVar("JOB_COMPLETION_INDEX")
		if err != nil {
			return Shard{}, false, err
		}
		n, err := countFrom("NETSCHED_SHARDS")
		if err != nil {
			return Shard{}, false, fmt.Errorf("JOB_COMPLETION_INDEX=%d is set but %v", i, err)
		}
		s, err := newShard(i, n, "JOB_COMPLETION_INDEX")
		return s, err == nil, err
	case getenv("SLURM_ARRAY_TASK_ID") != "":
		id, err := intVar("SLURM_ARRAY_TASK_ID")
		if err != nil {
			return Shard{}, false, err
		}
		lo := 0
		if getenv("SLURM_ARRAY_TASK_MIN") != "" {
			if lo, err = intVar("SLURM_ARRAY_TASK_MIN"); err != nil {
				return Shard{}, false, err
			}
		}
		n, err := countFrom("SLURM_ARRAY_TASK_COUNT", "NETSCHED_SHARDS")
		if err != nil {
			return Shard{}, false, fmt.Errorf("SLURM_ARRAY_TASK_ID=%d is set but %v", id, err)
		}
		s, err := newShard(id-lo, n, fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d (minus SLURM_ARRAY_TASK_MIN=%d)", id, lo))
		return s, err == nil, err
	case getenv("AWS_BATCH_JOB_ARRAY_INDEX") != "":
		i, err := intVar("AWS_BATCH_JOB_ARRAY_INDEX")
		if err != nil {
			return Shard{}, false, err
		}
		n, err := countFrom("NETSCHED_SHARDS", "AWS_BATCH_JOB_ARRAY_SIZE")
		if err != nil {
			return Shard{}, false, fmt.Errorf("AWS_BATCH_JOB_ARRAY_INDEX=%d is set but %v", i, err)
		}
		s, err := newShard(i, n, "AWS_BATCH_JOB_ARRAY_INDEX")
		return s, err == nil, err
	}
	return Shard{}, false, nil
}
