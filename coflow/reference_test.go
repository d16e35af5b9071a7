package coflow

import (
	"bytes"
	"math"
	"reflect"
	"testing"
)

// The replay that skips re-reading flows pinned at rate 0 (refresh) gives
// the same records, summary and output files, byte for byte, as the
// reference that reads every unfinished flow at every reallocation, on
// randomised synthetic traces under every policy and option variant. After
// every instant it also checks the premise directly: a flow marked still
// has, in the network, exactly the remaining bytes the replay holds.
func TestSkipReadsMatchesReference(t *testing.T) {
	seeds := 24
	if testing.Short() {
		seeds = 4
	}
	var still, reads int
	afterStep = func(r *replayer, _ float64) {
		for _, c := range r.active {
			cs := r.coflows[c.Index]
			for i := range c.Flows {
				f := &c.Flows[i]
				if f.Done || !cs.still[i] {
					continue
				}
				still++
				if got := r.net.Remaining(cs.ids[i]); math.Float64bits(got) != math.Float64bits(f.Rem) {
					t.Fatalf("coflow %d flow %d: still at rate %v with %v bytes held, network has %v", c.Index, i, f.Rate, f.Rem, got)
				}
			}
		}
	}
	defer func() { afterStep, readEveryFlow = nil, false }()
	for seed := range seeds {
		tr := synthetic(t, uint64(100+seed), 3+seed%8, 20+3*seed)
		for _, opt := range variants() {
			opt.PortSpeed = mib
			readEveryFlow = true
			want := replay(t, tr, opt)
			readEveryFlow = false
			got := replay(t, tr, opt)
			reads++
			if !reflect.DeepEqual(got.Coflows, want.Coflows) || !reflect.DeepEqual(got.Summary, want.Summary) {
				for i := range got.Coflows {
					if got.Coflows[i] != want.Coflows[i] {
						t.Fatalf("seed %d %s: coflow %+v, reference %+v", seed, name(opt), got.Coflows[i], want.Coflows[i])
					}
				}
				t.Fatalf("seed %d %s: summary %+v, reference %+v", seed, name(opt), got.Summary, want.Summary)
			}
			gf, err := got.Files()
			if err != nil {
				t.Fatal(err)
			}
			wf, err := want.Files()
			if err != nil {
				t.Fatal(err)
			}
			for i := range gf {
				if gf[i].Name != wf[i].Name || !bytes.Equal(gf[i].Bytes(), wf[i].Bytes()) {
					t.Fatalf("seed %d %s: %s differs from the reference", seed, name(opt), gf[i].Name)
				}
			}
		}
	}
	t.Logf("%d replays compared; %d still flows checked against the network", reads, still)
	if still == 0 {
		t.Fatal("no flow was ever still: the skipping is not exercised")
	}
}
