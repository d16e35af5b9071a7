package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// The Kubernetes Indexed Job of docs/scale-out.md is checked as a manifest
// (an Indexed batch/v1 Job whose completions, parallelism and --shards
// agree), then each pod's command is run as the pod would run it, with its
// JOB_COMPLETION_INDEX, and the merged shards must equal a local run.
func TestKubernetesIndexedJob(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "scale-out.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "## Kubernetes")
	section, _, _ = strings.Cut(section, "\n## ")
	m := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindStringSubmatch(section)
	if m == nil {
		t.Fatal("docs/scale-out.md's Kubernetes section has no yaml block")
	}
	var job struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Spec       struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int    `yaml:"completions"`
			Parallelism    int    `yaml:"parallelism"`
			Template       struct {
				Spec struct {
					RestartPolicy string `yaml:"restartPolicy"`
					Containers    []struct {
						Args []string `yaml:"args"`
					} `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	first, _, _ := strings.Cut(m[1], "\n---")
	if err := yaml.Unmarshal([]byte(first), &job); err != nil {
		t.Fatalf("the manifest does not parse: %v", err)
	}
	s := job.Spec
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || s.CompletionMode != "Indexed" || s.Template.Spec.RestartPolicy != "Never" ||
		len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("not an Indexed batch/v1 Job with one container and restartPolicy Never: %+v", job)
	}
	args := s.Template.Spec.Containers[0].Args
	i := slices.Index(args, "--shards")
	if len(args) < 2 || args[0] != "sweep" || i < 0 || i+1 >= len(args) || !slices.Contains(args, "--resume") {
		t.Fatalf("container args %q: want sweep FILE ... --shards N --resume", args)
	}
	n, err := strconv.Atoi(args[i+1])
	if err != nil || n != s.Completions || n != s.Parallelism {
		t.Fatalf("--shards %s, completions %d, parallelism %d: they must agree", args[i+1], s.Completions, s.Parallelism)
	}

	// Each pod, with the volumes mapped to temporary directories.
	root := t.TempDir()
	sweepSrc, err := os.ReadFile(filepath.Join("..", "..", "experiment", "catalog", "delay", "locality.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	mount := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	os.MkdirAll(mount("/sweeps"), 0o755)
	if err := os.WriteFile(mount(args[1]), sweepSrc, 0o644); err != nil {
		t.Fatal(err)
	}
	podArgs := slices.Clone(args)
	for k, a := range podArgs {
		if strings.HasPrefix(a, "/") {
			podArgs[k] = mount(a)
		}
	}
	for pod := range n {
		t.Setenv("JOB_COMPLETION_INDEX", strconv.Itoa(pod))
		runCLI(t, podArgs...)
	}
	out := podArgs[slices.Index(podArgs, "--out")+1]
	runCLI(t, "merge", out)
	t.Setenv("JOB_COMPLETION_INDEX", "")
	runCLI(t, "sweep", mount(args[1]), "--out", filepath.Join(root, "local"))
	merged, err1 := os.ReadFile(filepath.Join(out, "results.csv"))
	local, err2 := os.ReadFile(filepath.Join(root, "local", "results.csv"))
	if err1 != nil || err2 != nil || !bytes.Equal(merged, local) {
		t.Fatalf("merged pods' results differ from a local run (%v, %v)", err1, err2)
	}
}

func runCLI(t *testing.T, args ...string) {
	t.Helper()
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	if err := root.Execute(); err != nil {
		t.Fatalf("netsched %s: %v", strings.Join(args, " "), err)
	}
}
