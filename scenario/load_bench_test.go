package scenario

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// busyScenario is the busy scenario: n explicit jobs of a map and
// a reduce stage, one flow-style line each, in random arrival order.
func busyScenario(n int) []byte {
	var b strings.Builder
	b.WriteString("cluster: {racks: 10, machines_per_rack: 20, slots_per_machine: 1, nic: 1Gbps}\n")
	b.WriteString("network: {topology: two-tier, oversubscription: 4}\nscheduler: fifo\nworkload:\n  jobs:\n")
	r := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		fmt.Fprintf(&b, "    - {id: j%d, arrival: %.6fs, stages: [{id: m, tasks: [{compute: 1s, output: 10MB}]}, {id: r, after: m, tasks: [{compute: 1s}]}]}\n", i, r.Float64()*20)
	}
	return []byte(b.String())
}

// BenchmarkLoadBusy loads a scenario of 20,000 explicit jobs (2.7 MB) and
// opens its workload, as `netsched run` does before the engine starts.
func BenchmarkLoadBusy(b *testing.B) {
	data := busyScenario(20000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		sc, err := Parse("busy.yaml", data, "")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := sc.OpenWorkload(); err != nil {
			b.Fatal(err)
		}
	}
}

func newRand() *rand.Rand { return rand.New(rand.NewPCG(7, 8)) }
