package jobpacker_test

import (
	"strconv"
	"testing"

	"github.com/netsched/netsched/metrics"
)

// jct is the completion time of the result's only job (or its first).
func jct(t *testing.T, r *metrics.Result) float64 {
	t.Helper()
	if len(r.Jobs) == 0 {
		t.Fatal("no job finished")
	}
	return r.Jobs[0].JCT
}

func itoa(n int) string { return strconv.Itoa(n) }

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
