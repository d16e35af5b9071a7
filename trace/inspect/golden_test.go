package inspect

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/netsched/netsched/trace/coflowbench"
	"github.com/netsched/netsched/trace/jobmodel"
	"github.com/netsched/netsched/trace/swim"
)

// sharedTrace returns the path of a file in ../shared/traces (relative to
// the repository root, which is two levels above this package), skipping
// the test when the data is not on this machine.
func sharedTrace(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "shared", "traces", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared trace %s is not present (%v): golden statistics need ../shared/traces next to the repository", name, err)
	}
	return p
}

func swimStats(t *testing.T, name string) *Stats {
	t.Helper()
	src, err := swim.Open(sharedTrace(t, name), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Collect(src)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Golden statistics of the SWIM FB-2010 day. Byte totals and percentiles
// are exact sums/ranks of the file's integers; the class shares reproduce
// NAS §IV-A Fig. 2 (50.02% small-input; 68.70% shuffle-light, 12.58%
// medium; NAS prints 18.82% heavy, but its three shares only sum to 100%
// with 18.72%, which is what the file gives).
func TestGoldenFB2010(t *testing.T) {
	st := swimStats(t, "FB-2010_samples_24_times_1hr_0.tsv")
	type golden struct {
		Jobs                 int
		Span                 float64
		In, Sh, Out          float64
		Input, Shuffle, Outp Percentiles
		Maps                 Percentiles
		MapOnly, SmallInput  int
		Light, Medium, Heavy int
	}
	got := golden{st.Jobs, st.Span, st.TotalInput, st.TotalShuffle, st.TotalOutput,
		st.Input, st.Shuffle, st.Output, st.Maps,
		int(st.MapOnly*float64(st.Jobs) + 0.5), st.InputClasses[0].Jobs,
		st.ShuffleClasses[0].Jobs, st.ShuffleClasses[1].Jobs, st.ShuffleClasses[2].Jobs}
	want := golden{
		Jobs: 24442, Span: 86399,
		In: 1082621755403831, Sh: 437891230970678, Out: 339413094842194,
		Input:   Percentiles{533, 10429774, 30572199493, 1113947941879, 11718020058182},
		Shuffle: Percentiles{0, 856, 788426935, 227125586608, 29791715280984},
		Outp:    Percentiles{136, 60635, 1112933553, 131905677988, 85090049531843},
		// Maps at the default 128 MiB block.
		Maps:    Percentiles{1, 1, 228, 8300, 87307},
		MapOnly: 8324, SmallInput: 12226,
		Light: 16792, Medium: 3074, Heavy: 4576,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FB-2010 statistics (-want +got):\n%s", diff)
	}
	if st.MapOnly < 0.34 || st.MapOnly > 0.345 {
		t.Errorf("map-only share %.4f, traces.md says 34%%", st.MapOnly)
	}
}

func TestGoldenFB2009(t *testing.T) {
	st := swimStats(t, "FB-2009_samples_24_times_1hr_0.tsv")
	got := []float64{float64(st.Jobs), st.TotalInput, st.TotalShuffle, st.TotalOutput, float64(int(st.MapOnly*float64(st.Jobs) + 0.5))}
	want := []float64{5894, 26886497357605, 22216712306762, 6852686303142, 4448}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FB-2009 jobs, totals, map-only (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Percentiles{76, 18986, 607579388, 82572096012, 7551263722208}, st.Input); diff != "" {
		t.Errorf("FB-2009 input percentiles (-want +got):\n%s", diff)
	}
	// traces.md: 75.5% map-only.
	if st.MapOnly < 0.754 || st.MapOnly > 0.756 {
		t.Errorf("map-only share %.4f", st.MapOnly)
	}
}

// Golden statistics of the coflow-benchmark FB2010 hour, as coflows (the
// figures traces.md quotes: 706,397 pairs, 35.5 million MB, mappers p50 3
// p90 64, reducers p50 1 p90 73, size p50 25 MB, 68% under 100 MB) and as
// the jobs the importer makes of it.
func TestGoldenCoflowFB2010(t *testing.T) {
	tr, err := coflowbench.ReadFile(sharedTrace(t, "FB2010-1Hr-150-0.txt"))
	if err != nil {
		t.Fatal(err)
	}
	c := Coflows(tr)
	got := []float64{float64(c.Coflows), float64(c.Ports), float64(c.Flows), c.TotalBytes / mib,
		c.Mappers.P50, c.Mappers.P90, c.Reducers.P50, c.Reducers.P90, c.Size.P50 / mib, c.Size.P90, c.Under100MB * 526}
	want := []float64{526, 150, 706397, 35533534, 3, 64, 1, 73, 25, 11815354368, 360}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("coflow statistics (-want +got):\n%s", diff)
	}

	cfg, err := jobmodel.ParseCoflow(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Collect(jobmodel.NewCoflowSource("FB2010", tr, cfg))
	if err != nil {
		t.Fatal(err)
	}
	// Shuffle is the trace's bytes; input and output follow the default
	// ratios 2.47 and 0.775 (equal up to float rounding).
	if st.Jobs != 526 || st.MapOnly != 0 || st.TotalShuffle != c.TotalBytes {
		t.Errorf("jobs %d, map-only %g, shuffle %g", st.Jobs, st.MapOnly, st.TotalShuffle)
	}
	for _, r := range []struct{ got, want float64 }{{st.TotalInput, 2.47 * c.TotalBytes}, {st.TotalOutput, 0.775 * c.TotalBytes}} {
		if d := r.got/r.want - 1; d > 1e-9 || d < -1e-9 {
			t.Errorf("total %g, want %g", r.got, r.want)
		}
	}
	if st.Reduces.Max != c.Reducers.Max || st.LastArrival != tr.Coflows[525].Arrival {
		t.Errorf("reduces max %g, last arrival %g", st.Reduces.Max, st.LastArrival)
	}
}
