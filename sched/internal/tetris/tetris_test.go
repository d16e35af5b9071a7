package tetris

import (
	"math"
	"slices"
	"testing"
)

// Tetris's footnote: free (0.2, 0.3, 0.5), demand (0.1, 0.2, 0.3) on unit
// capacity score 0.1*0.2 + 0.2*0.3 + 0.3*0.5 = 0.23.
func TestAlignmentFootnote(t *testing.T) {
	got := Alignment([]float64{0.1, 0.2, 0.3}, []float64{0.2, 0.3, 0.5}, []float64{1, 1, 1})
	if math.Abs(got-0.23) > 1e-12 {
		t.Errorf("alignment %g, want 0.23", got)
	}
	// Normalization: the same vectors at capacity 10 are worth the same.
	got = Alignment([]float64{1, 2, 3}, []float64{2, 3, 5}, []float64{10, 10, 10})
	if math.Abs(got-0.23) > 1e-12 {
		t.Errorf("alignment at capacity 10: %g, want 0.23", got)
	}
}

// Two bins of capacity (4, 4); items a=(3,1), b=(1,3), c=(2,2), d=(2,2).
// Step 1: every item scores 4/4*... on an empty bin: a = 3/4*1 + 1/4*1 =
// 1, b = 1, c = 1, d = 1: a tie, so item a (lowest index) into bin 0.
// Bin 0 is left (1, 3). Step 2: b in bin 0: 1/4*1/4 + 3/4*3/4 = 0.625;
// b, c, d in bin 1 score 1; c in bin 0 does not fit. Best: b into bin 1
// (score 1, lower item index than c and d). Bin 1 is left (3, 1).
// Step 3: c and d fit neither bin ((1,3) and (3,1) lack 2 in one
// dimension). Left-overs, largest first (c and d tie at 1: c first), go to
// the bin with the most room in its tightest dimension: both bins have
// 1/4; bin 0 (lower index) takes c and runs over to (-1, 1); d goes to bin
// 1, whose tightest dimension has 1/4 left against bin 0's -1/4.
func TestPackByHand(t *testing.T) {
	items := [][]float64{{3, 1}, {1, 3}, {2, 2}, {2, 2}}
	got, err := Pack(items, []float64{4, 4}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("bins %v, want %v", got, want)
	}
}

// Items go where their demand complements what is free: two CPU-heavy and
// two memory-heavy items end up one of each per bin.
func TestPackComplements(t *testing.T) {
	items := [][]float64{{6, 1}, {6, 1}, {1, 6}, {1, 6}}
	got, err := Pack(items, []float64{7, 7}, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Step 1: on empty bins every item scores 1; a (lowest index) goes to
	// bin 0, left (1, 6). Step 2: b no longer fits bin 0; b, c, d score 1
	// in bin 1, c and d 1/7*1/7 + 6/7*6/7 = 37/49 in bin 0: b into bin 1,
	// left (1, 6). Step 3: c scores 37/49 in both bins, bin 0 first; d
	// then fits only bin 1. The CPU-heavy items are split, each paired
	// with a memory-heavy one.
	if want := []int{0, 1, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("bins %v, want %v", got, want)
	}
}

func TestSharesAndErrors(t *testing.T) {
	items := [][]float64{{1, 10}, {3, 30}}
	if got := Shares(items, 2, 4); !slices.Equal(got, []float64{1, 10}) {
		t.Errorf("shares %v, want [1 10]", got)
	}
	if _, err := Pack(items, []float64{1, 1}, 0); err == nil {
		t.Error("0 bins accepted")
	}
	if _, err := Pack([][]float64{{1}}, []float64{1, 1}, 1); err == nil {
		t.Error("a short demand vector accepted")
	}
	if _, err := Pack([][]float64{{math.NaN(), 1}}, []float64{1, 1}, 1); err == nil {
		t.Error("a NaN demand accepted")
	}
}
