package experiment

import "testing"

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		err  string
	}{
		{"0/3", Shard{0, 3}, ""},
		{" 2 / 3 ", Shard{2, 3}, ""},
		{"0/1", Shard{0, 1}, ""},
		{"3/3", Shard{}, "shard 3/3: index 3 is outside 0..2 (shards are numbered from 0)"},
		{"1/0", Shard{}, "shard 1/0: the number of shards must be at least 1, got 0"},
		{"1", Shard{}, `shard "1": expected i/n, like 0/4 (shards are numbered from 0)`},
		{"a/b", Shard{}, `shard "a/b": expected i/n, like 0/4 (shards are numbered from 0)`},
	} {
		got, err := ParseShard(tc.in)
		if (err == nil) != (tc.err == "") || (err != nil && err.Error() != tc.err) || got != tc.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, %s", tc.in, got, err, tc.want, tc.err)
		}
	}
	s := Shard{1, 3}
	var owned []int
	for i := range 8 {
		if s.owns(i) {
			owned = append(owned, i)
		}
	}
	if len(owned) != 3 || owned[0] != 1 || owned[1] != 4 || owned[2] != 7 {
		t.Errorf("shard 1/3 owns %v, want [1 4 7]", owned)
	}
}

func TestShardFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name  string
		env   map[string]string
		count int
		want  Shard
		ok    bool
		err   string
	}{
		{"none", nil, 0, Shard{}, false, ""},
		{"k8s with --shards", map[string]string{"JOB_COMPLETION_INDEX": "2"}, 4, Shard{2, 4}, true, ""},
		{"k8s with env", map[string]string{"JOB_COMPLETION_INDEX": "0", "NETSCHED_SHARDS": "3"}, 0, Shard{0, 3}, true, ""},
		{"k8s without count", map[string]string{"JOB_COMPLETION_INDEX": "1"}, 0, Shard{}, false,
			"JOB_COMPLETION_INDEX=1 is set but the number of shards is unknown: pass --shards N or set NETSCHED_SHARDS"},
		{"k8s out of range", map[string]string{"JOB_COMPLETION_INDEX": "4"}, 4, Shard{}, false,
			"JOB_COMPLETION_INDEX: index 4 is outside 0..3 (shards are numbered from 0)"},
		{"slurm from 1", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"}, 0, Shard{2, 3}, true, ""},
		{"slurm from 0", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "5"}, 0, Shard{0, 5}, true, ""},
		{"slurm bad id", map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "5"}, 0, Shard{}, false, `SLURM_ARRAY_TASK_ID="x" is not an integer`},
		{"aws with size", map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "7", "AWS_BATCH_JOB_ARRAY_SIZE": "10"}, 0, Shard{7, 10}, true, ""},
		{"aws flag wins", map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "1", "AWS_BATCH_JOB_ARRAY_SIZE": "10"}, 2, Shard{1, 2}, true, ""},
		{"aws bad size", map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "1", "AWS_BATCH_JOB_ARRAY_SIZE": "ten"}, 0, Shard{}, false,
			`AWS_BATCH_JOB_ARRAY_INDEX=1 is set but AWS_BATCH_JOB_ARRAY_SIZE="ten" is not an integer`},
		{"kubernetes before slurm", map[string]string{"JOB_COMPLETION_INDEX": "1", "SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "9"}, 2, Shard{1, 2}, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := ShardFromEnv(func(k string) string { return tc.env[k] }, tc.count)
			if (err == nil) != (tc.err == "") || (err != nil && err.Error() != tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if got != tc.want || ok != tc.ok {
				t.Errorf("got %v %v, want %v %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}
