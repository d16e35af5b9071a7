package coflow

import (
	"reflect"
	"testing"

	"github.com/netsched/netsched/trace/coflowbench"
)

const mib = coflowbench.MB

func TestBuildFlows(t *testing.T) {
	c := coflowbench.Coflow{
		Mappers: []int{3, 1, 3}, // distinct: 1, 3
		Reducers: []coflowbench.Reducer{
			{Port: 1, Bytes: 6 * mib}, // 3 MiB from 1 (local) + 3 MiB from 3
			{Port: 2, Bytes: 4 * mib}, // 2 MiB from each
			{Port: 0, Bytes: 0},       // nothing to move
		},
	}
	flows, local := buildFlows(&c, flowModel{})
	want := []flowSpec{
		{src: 3, dst: 1, size: 3 * mib},
		{src: 1, dst: 2, size: 2 * mib},
		{src: 3, dst: 2, size: 2 * mib},
	}
	if !reflect.DeepEqual(flows, want) {
		t.Errorf("flows = %+v\nwant %+v", flows, want)
	}
	if local != 3*mib {
		t.Errorf("local = %v, want 3 MiB", local)
	}
	cs, _ := newCoflowState(7, 4, &c, flowModel{})
	if cs.width != 3 || cs.Bytes != 7*mib || cs.Longest != 3*mib || cs.Narrow != 2 || cs.left != 3 || cs.Index != 7 {
		t.Errorf("state %+v", *cs)
	}
	// 4 ports: uplinks 0-3, downlinks 4-7. Flow 0 is 3->1.
	if f := cs.Flows[0]; f.Rem != 3*mib || f.Rate != -1 || len(f.Resources()) != 2 || f.Res[0] != 3 || f.Res[1] != 5 {
		t.Errorf("flow 0 %+v", f)
	}
}

func TestTag(t *testing.T) {
	for _, c := range [][2]int{{0, 0}, {525, 70000}, {1 << 30, 1<<32 - 1}} {
		if a, b := untag(tag(c[0], c[1])); a != c[0] || b != c[1] {
			t.Errorf("untag(tag(%d, %d)) = %d, %d", c[0], c[1], a, b)
		}
	}
}
