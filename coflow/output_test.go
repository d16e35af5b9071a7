package coflow

import (
	"encoding/json"
	"github.com/netsched/netsched/metrics"
	"strings"
	"testing"
)

func TestFiles(t *testing.T) {
	// 1 MiB/s ports: "x" is one 2 MiB flow (2 s), "y,1" is local only.
	tr := parseTrace(t, 2, "x 500 1 0 1 1:2", `y,1 1000 1 1 1 1:3`)
	res := replay(t, tr, Options{Policy: SEBF, PortSpeed: mib})
	files, err := res.Files()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Name != SummaryFile || files[1].Name != CoflowsFile {
		t.Fatalf("files %v", files)
	}
	wantCSV := "coflow_id,arrival,finish,cct,bytes,width\n" +
		"x,0.5,2.5,2,2097152,1\n" +
		"\"y,1\",1,1,0,3145728,0\n"
	if got := string(files[1].Bytes()); got != wantCSV {
		t.Errorf("coflows.csv:\n%s\nwant:\n%s", got, wantCSV)
	}
	var s Summary
	if err := json.Unmarshal(files[0].Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	// CCTs 2 and 0: mean 1, nearest-rank p50 0 (1 of 2 values), p95 2.
	want := Stats{Count: 2, Mean: 1, P50: 0, P95: 2, P99: 2, Max: 2}
	if s.CCT != want || s.Bins.ShortNarrow != want || s.Bins.LongWide.Count != 0 {
		t.Errorf("summary %+v", s)
	}
	if s.Policy != SEBF || s.Coflows != 2 || s.Flows != 1 || s.Bytes != 5*mib || s.NetworkBytes != 2*mib ||
		s.Makespan != 2 || s.PortSpeed != mib || s.ShortFlowLimit != 5*mib || s.NarrowWidth != 50 {
		t.Errorf("summary %+v", s)
	}
	var table strings.Builder
	if err := res.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"policy sebf: 2 coflows, 1 flows", "short-narrow", "long-wide"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
}

func TestStatsNearestRank(t *testing.T) {
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(100 - i) // 100..1, unsorted
	}
	got := metrics.Summarize(xs)
	want := Stats{Count: 100, Mean: 50.5, P50: 50, P95: 95, P99: 99, Max: 100}
	if got != want {
		t.Errorf("stats = %+v, want %+v", got, want)
	}
	if got := metrics.Summarize(nil); got != (Stats{}) {
		t.Errorf("metrics.Summarize(nil) = %+v", got)
	}
	if got := metrics.Summarize([]float64{3}); got != (Stats{Count: 1, Mean: 3, P50: 3, P95: 3, P99: 3, Max: 3}) {
		t.Errorf("metrics.Summarize([3]) = %+v", got)
	}
}

func TestBins(t *testing.T) {
	cases := []struct {
		r             Record
		short, narrow bool
	}{
		{Record{LongestFlow: 5*mib - 1, Width: 50}, true, true},
		{Record{LongestFlow: 5 * mib, Width: 51}, false, false},
		{Record{}, true, true},
	}
	for _, c := range cases {
		if c.r.Short() != c.short || c.r.Narrow() != c.narrow {
			t.Errorf("%+v: short %v narrow %v", c.r, c.r.Short(), c.r.Narrow())
		}
	}
}
