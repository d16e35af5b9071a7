package nas_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/swim"
	"github.com/netsched/netsched/workload"
)

// Clusters of §IV-A. fbFull is the paper's: 600 nodes in 30 racks of 20, 6
// containers each, 250 Mbps per node inside a rack and a 1 Gbps rack
// uplink (50 Mbps per node), 128 MB blocks with 3 replicas. fbTenth is the
// x0.1 version of the catalog (6 racks of 10, 500 Mbps uplinks: the same
// 50 Mbps per node). The one-job workload is a placeholder replaced by the
// SWIM trace.
const (
	fbFull = `
seed: 1
cluster: {racks: 30, machines_per_rack: 20, slots_per_machine: 6, nic: 250Mbps}
network: {topology: two-tier, rack_uplink: 1Gbps, rack_downlink: 1Gbps}
dfs: {block: 128MB, replicas: 3}
engine: {heartbeat: 1s}
workload: {jobs: [{id: placeholder, stages: [{id: s, tasks: [{compute: 1s}]}]}]}
scheduler: nas
`
	fbTenth = `
seed: 1
cluster: {racks: 6, machines_per_rack: 10, slots_per_machine: 6, nic: 250Mbps}
network: {topology: two-tier, rack_uplink: 500Mbps, rack_downlink: 500Mbps}
dfs: {block: 128MB, replicas: 3}
engine: {heartbeat: 1s}
workload: {jobs: [{id: placeholder, stages: [{id: s, tasks: [{compute: 1s}]}]}]}
scheduler: nas
`
)

// fbTrace is the SWIM FB-2010 day, read from ../shared/traces relative to
// the repository root.
func fbTrace(tb testing.TB) string {
	_, here, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(here), "..", "..", "..", "shared", "traces", "FB-2010_samples_24_times_1hr_0.tsv")
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("SWIM trace not available (%v); it lives in ../shared/traces next to the repository", err)
	}
	return p
}

// fbScenario replays the first jobs of the FB-2010 day with 200 users on
// cluster, every byte count multiplied by scale.
func fbScenario(tb testing.TB, cluster string, jobs int, scale float64) *scenario.Scenario {
	path := fbTrace(tb)
	sc, err := scenario.Parse("fb.yaml", []byte(cluster), ".")
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := swim.ParseOptions(map[string]any{"users": 200, "max_jobs": jobs, "size_scale": scale}, sc)
	if err != nil {
		tb.Fatal(err)
	}
	sc.OpenWorkload = func() (workload.Source, error) { return swim.OpenFile(path, cfg) }
	return sc
}
