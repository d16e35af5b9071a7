//go:build linux

package validate

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenario"
	_ "github.com/netsched/netsched/sched/all"
)

// needNetns skips unless this process may create network namespaces.
func needNetns(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("emulation needs root to create network namespaces")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("emulation needs iproute2 (ip, tc); CI installs it")
	}
	if err := run("ip", "netns", "add", "netsched-probe"); err != nil {
		t.Skipf("this kernel or container does not allow network namespaces: %v", err)
	}
	run("ip", "netns", "del", "netsched-probe")
}

// The smallest validation: one 10MB flow over 100 Mbit/s NICs. The model
// says 0.8 s; TCP delivers about 96.5% of the line rate as payload (1448
// of 1500 bytes per segment), so the measured time is about 0.83 s: within
// 10% (a loaded machine adds noise). Every namespace is gone afterwards.
func TestValidateOneFlow(t *testing.T) {
	needNetns(t)
	sc, err := scenario.Parse("one.yaml", []byte(`
cluster: {racks: 1, machines_per_rack: 2, slots_per_machine: 1, nic: 100Mbps}
workload:
  jobs:
    - {id: a, stages: [{id: m, tasks: [{compute: 0s, output: 10MB, pin: 0}]}, {id: r, after: m, tasks: [{compute: 0s, pin: 1}]}]}
`), ".")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Flows) != 1 || r.Flows[0].SimFCT != 0.8 || math.Abs(r.Flows[0].RelErr) > 0.10 {
		t.Fatalf("flows %+v, want one of 0.8 s simulated and a measured time within 10%%", r.Flows)
	}
	if r.Goodput != 0 { // fitted only from flows of at least a second
		t.Errorf("goodput fit %g from a flow under a second", r.Goodput)
	}
	out, _ := exec.Command("ip", "netns", "list").Output()
	if strings.Contains(string(out), fmt.Sprintf("ns%dm", os.Getpid())) {
		t.Errorf("namespaces left behind: %s", out)
	}
}

// A scenario the emulation cannot stand for is refused before any
// namespace is made.
func TestValidateRefusesHybrid(t *testing.T) {
	sc, err := scenario.Parse("h.yaml", []byte(`
cluster: {racks: 2, machines_per_rack: 1, slots_per_machine: 1, nic: 1Gbps}
network: {topology: hybrid}
workload: {jobs: [{id: a, stages: [{id: m, tasks: [{compute: 1s}]}]}]}
`), ".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(sc, Options{}); err == nil || !strings.Contains(err.Error(), "optical circuit switch") {
		t.Fatalf("error %v", err)
	}
}
