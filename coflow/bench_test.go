package coflow

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/netsched/netsched/trace/coflowbench"
)

// fb2010Path is the public trace, read from ../shared/traces relative to the
// repository root.
func fb2010Path(tb testing.TB) string {
	path := filepath.Join("..", "..", "shared", "traces", "FB2010-1Hr-150-0.txt")
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("FB2010 trace not available at %s (%v); it lives in ../shared/traces next to the repository", path, err)
	}
	return path
}

func loadFB2010(tb testing.TB) *coflowbench.Trace {
	tr, err := coflowbench.ReadFile(fb2010Path(tb))
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

func benchReplay(b *testing.B, opt Options) {
	tr := loadFB2010(b)
	var res *Result
	for b.Loop() {
		var err error
		if res, err = Replay(tr, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(res.Summary.CCT.Mean, "meanCCT_s")
	b.ReportMetric(float64(res.Summary.Flows), "flows")
}

// The full FB2010 trace (526 coflows, 150 ports at 1 Gbps); target < 10 s.
func BenchmarkReplayFB2010Fair(b *testing.B) { benchReplay(b, Options{Policy: Fair}) }
func BenchmarkReplayFB2010Sebf(b *testing.B) { benchReplay(b, Options{Policy: SEBF}) }
func BenchmarkReplayFB2010Aalo(b *testing.B) { benchReplay(b, Options{Policy: Aalo}) }

// The first 150 coflows under sebf: a quicker probe of the same path.
func BenchmarkReplayFB2010SebfFirst150(b *testing.B) {
	tr := loadFB2010(b)
	tr.Coflows = tr.Coflows[:150]
	for b.Loop() {
		if _, err := Replay(tr, Options{Policy: SEBF}); err != nil {
			b.Fatal(err)
		}
	}
}
