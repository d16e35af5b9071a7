package inspect

import (
	"testing"
)

// BenchmarkInspectFB2010 is `netsched trace inspect` on the shared FB-2010
// day: resolve, validating pass, streaming pass and statistics.
func BenchmarkInspectFB2010(b *testing.B) {
	p := sharedTrace(b, "FB-2010_samples_24_times_1hr_0.tsv")
	b.ReportAllocs()
	for b.Loop() {
		st, err := Inspect(Input{Path: p})
		if err != nil {
			b.Fatal(err)
		}
		if st.Jobs != 24442 {
			b.Fatal(st.Jobs)
		}
	}
}
