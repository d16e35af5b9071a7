package report

import (
	"github.com/netsched/netsched/stats"
	"math"
	"strings"
	"testing"
)

// geos builds ratios from their geometric means; geoOf reads them back.
func geos(gs ...float64) []stats.Ratio {
	out := make([]stats.Ratio, len(gs))
	for i, g := range gs {
		out[i].Geo = g
	}
	return out
}

func geoOf(rs []stats.Ratio) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = r.Geo
	}
	return out
}

// Per seed the fixture's delay runs 17 and 18 s where fair runs 21 and 22
// (15 and 16 with skips 5): the paired ratio is the geometric mean.
func TestCompareAveragesAndNormalizes(t *testing.T) {
	r, err := LoadResults(fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	sd := math.Sqrt(0.5) // two seeds one apart
	for _, tc := range []struct {
		name     string
		baseline string
		at       map[string]string
		want     []Comparison
	}{
		{"first point, first baseline", "", nil, []Comparison{
			{Scheduler: "fair", Seeds: 2, Mean: []float64{21.5, 40}, SD: []float64{sd, 0}, Ratio: geos(1, 1)},
			{Scheduler: "delay", Seeds: 2, Mean: []float64{17.5, 40}, SD: []float64{sd, 0}, Ratio: geos(math.Sqrt(17.0*18/(21*22)), 1)},
		}},
		{"skips 5", "", map[string]string{"scheduler.params.skips": "5"}, []Comparison{
			{Scheduler: "fair", Seeds: 2, Mean: []float64{21.5, 40}, SD: []float64{sd, 0}, Ratio: geos(1, 1)},
			{Scheduler: "delay", Seeds: 2, Mean: []float64{15.5, 40}, SD: []float64{sd, 0}, Ratio: geos(math.Sqrt(15.0*16/(21*22)), 1)},
		}},
		{"delay as baseline leads", "delay", nil, []Comparison{
			{Scheduler: "delay", Seeds: 2, Mean: []float64{17.5, 40}, SD: []float64{sd, 0}, Ratio: geos(1, 1)},
			{Scheduler: "fair", Seeds: 2, Mean: []float64{21.5, 40}, SD: []float64{sd, 0}, Ratio: geos(math.Sqrt(21.0*22/(17*18)), 1)},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.Compare([]string{"jct.mean", "makespan"}, tc.baseline, tc.at)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d rows, want %d", len(got), len(tc.want))
			}
			for i, w := range tc.want {
				g := got[i]
				if g.Scheduler != w.Scheduler || g.Seeds != w.Seeds || !close(g.Mean, w.Mean) || !close(g.SD, w.SD) || !close(geoOf(g.Ratio), geoOf(w.Ratio)) {
					t.Errorf("row %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

func close(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12 {
			return false
		}
	}
	return true
}

func TestCompareErrors(t *testing.T) {
	r, err := LoadResults(fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		baseline string
		at       map[string]string
		want     string
	}{
		{"", map[string]string{"scheduler.params.skips": "7"}, "report at scheduler.params.skips=7: not a value of the sweep (values: [0 5])"},
		{"", map[string]string{"cluster.racks": "2"}, "report at cluster.racks: not a swept parameter (parameters: [scheduler.params.skips])"},
		{"capacity", nil, `baseline "capacity" has no successful run at this point (schedulers: [fair delay])`},
	} {
		_, err := r.Compare([]string{"jct.mean"}, tc.baseline, tc.at)
		if err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}
}

func TestMeanSD(t *testing.T) {
	m, sd, n := meanSD([]float64{2, 4, 4, 4, 5, 5, 7, 9, math.NaN(), math.Inf(1)})
	// Sample variance of 2,4,4,4,5,5,7,9: sum of squares 32 over 7.
	if m != 5 || math.Abs(sd-math.Sqrt(32.0/7)) > 1e-15 || n != 8 {
		t.Errorf("meanSD = %v, %v, %d", m, sd, n)
	}
	if m, sd, n := meanSD(nil); !math.IsNaN(m) || !math.IsNaN(sd) || n != 0 {
		t.Errorf("empty: %v %v %d", m, sd, n)
	}
}

func TestWriteComparison(t *testing.T) {
	var b strings.Builder
	cmp := []Comparison{
		{Scheduler: "fifo", Seeds: 2, Mean: []float64{12.34, 2.5e9, 0.15}, Ratio: []stats.Ratio{{N: 2, Geo: 1, Low: 1, High: 1}, {N: 2, Geo: 1, Low: 1, High: 1}, {N: 2, Geo: 1, Low: 1, High: 1}}},
		{Scheduler: "fair", Seeds: 2, Mean: []float64{10.1, 0, math.NaN()},
			Ratio: []stats.Ratio{{N: 2, Geo: 0.818, Low: 0.7, High: 0.95}, {N: 0}, {N: 2, Geo: 1.02, Low: 0.9, High: 1.1}}},
	}
	if err := WriteComparison(&b, cmp, []string{"jct.mean", "bytes.total.cross_rack", "throughput"}); err != nil {
		t.Fatal(err)
	}
	want := `relative to fifo, paired by seed: geometric-mean ratio [95% interval]; "tie" where the interval contains 1 (lower is better except throughput)
scheduler  runs  mean JCT              cross-rack bytes  throughput
fifo       2     1.000                 1.000             1.000
fair       2     0.818 [0.700, 0.950]  -                 tie 1.020 [0.900, 1.100]

absolute (mean over runs)
scheduler  runs  mean JCT  cross-rack bytes  throughput
fifo       2     12.3s     2.5GB             0.15 jobs/s
fair       2     10.1s     0B                -
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestFormatValue(t *testing.T) {
	for _, tc := range []struct {
		metric string
		v      float64
		want   string
	}{
		{"jct.p95", 0.01234, "12.3ms"},
		{"makespan", 1234.5, "20m30s"}, // 3 significant digits: 1230s
		{"bytes.input.cross_rack", 1.5e12, "1.5TB"},
		{"node_locality", 0.91666, "0.917"},
		{"jobs", 12, "12"},
		{"jct.mean", math.NaN(), "-"},
	} {
		if got := FormatValue(tc.metric, tc.v); got != tc.want {
			t.Errorf("FormatValue(%s, %v) = %s, want %s", tc.metric, tc.v, got, tc.want)
		}
	}
}
