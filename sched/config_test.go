package sched

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

type testList struct{ items []string }

func (l *testList) SetParam(raw any) error {
	xs, ok := raw.([]any)
	if !ok {
		return fmt.Errorf("expected a list")
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprint(x)
	}
	l.items = out
	return nil
}

func (l testList) String() string { return "[" + strings.Join(l.items, ", ") + "]" }

type shared struct {
	Net string `param:"net" choices:"a|b" help:"shared"`
}

type testConfig struct {
	N    int      `param:"n" min:"1" max:"10" help:"count"`
	Wait float64  `param:"wait" unit:"s" min:"-1" help:"a wait"`
	Size float64  `param:"size" unit:"B" help:"a size"`
	Rate float64  `param:"rate" unit:"bps" help:"a rate"`
	On   bool     `param:"on" help:"a switch"`
	List testList `param:"list" help:"a list"`
	shared
	Ignored int
	Lo, Hi  float64 `param:"-"`
}

func (c *testConfig) Validate() error {
	if c.Lo > c.Hi {
		return BadParam("lo", c.Lo, "at most hi")
	}
	if c.N == 7 {
		return ParamErrorf("n", "7 is unlucky")
	}
	return nil
}

var testDefaults = testConfig{N: 2, Wait: -1, Size: 128e6, Rate: 1.25e9, List: testList{[]string{"x"}}, shared: shared{"a"}}

func TestDefineListsDefaults(t *testing.T) {
	info := Define("t", "test", testDefaults, func(testConfig) (Scheduler, error) { return nil, nil })
	var got []string
	for _, p := range info.Params {
		got = append(got, p.Name+"="+p.Default)
	}
	want := "n=2 wait=-1 size=128MB rate=10Gbps on=false list=[x] net=a"
	if strings.Join(got, " ") != want {
		t.Fatalf("params %v, want %s", got, want)
	}
}

func TestDecode(t *testing.T) {
	s := specOf(testDefaults)
	c, err := decode(s, testDefaults, map[string]any{"n": 3, "wait": "1.5s", "size": "1GB", "rate": "1Gbps", "on": true, "list": []any{"p", 2}, "net": "b"})
	if err != nil {
		t.Fatal(err)
	}
	if c.N != 3 || c.Wait != 1.5 || c.Size != 1e9 || c.Rate != 1.25e8 || !c.On || c.List.String() != "[p, 2]" || c.Net != "b" {
		t.Fatalf("decoded %+v", c)
	}
	if testDefaults.List.String() != "[x]" {
		t.Fatalf("decoding changed the defaults: %v", testDefaults.List)
	}
	d, err := decode(s, testDefaults, map[string]any{"wait": uint64(4), "size": 5.5})
	if err != nil || d.Wait != 4 || d.Size != 5.5 || d.N != 2 {
		t.Fatalf("decoded %+v, %v", d, err)
	}
}

func TestDecodeErrors(t *testing.T) {
	s := specOf(testDefaults)
	for _, c := range []struct {
		params map[string]any
		param  string
		want   string
	}{
		{map[string]any{"n": 0}, "n", "parameter n: got 0, expected an integer in [1, 10]"},
		{map[string]any{"n": 2.5}, "n", "expected an integer"},
		{map[string]any{"n": "two"}, "n", "got two, expected an integer"},
		{map[string]any{"n": 7}, "n", "parameter n: 7 is unlucky"},
		{map[string]any{"wait": "soon"}, "wait", "expected a duration like 1.5s >= -1"},
		{map[string]any{"wait": -2}, "wait", "got -2"},
		{map[string]any{"size": "big"}, "size", "expected a size like 128MB"},
		{map[string]any{"rate": "fast"}, "rate", "expected a rate like 10Gbps"},
		{map[string]any{"on": "yes"}, "on", "expected true or false"},
		{map[string]any{"net": "c"}, "net", "expected one of a, b"},
		{map[string]any{"net": 1}, "net", "expected one of a, b"},
		{map[string]any{"list": "x"}, "list", "parameter list: expected a list"},
		{map[string]any{"Ignored": 1}, "", "unknown parameter(s) Ignored (known: list, n, net, on, rate, size, wait)"},
	} {
		_, err := decode(s, testDefaults, c.params)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.params, err, c.want)
			continue
		}
		var pe *ParamError
		if c.param != "" && (!errors.As(err, &pe) || pe.Param != c.param) {
			t.Errorf("%v: error %v does not name parameter %s", c.params, err, c.param)
		}
	}
	// Validate sees the decoded values.
	bad := testDefaults
	bad.Lo, bad.Hi = 2, 1
	if _, err := decode(specOf(bad), bad, nil); err == nil || !strings.Contains(err.Error(), "parameter lo") {
		t.Errorf("Validate not called: %v", err)
	}
}

// Malformed declarations are programming errors caught at registration.
func TestSpecPanics(t *testing.T) {
	type unitOnInt struct {
		N int `param:"n" unit:"s"`
	}
	type badType struct {
		M map[string]int `param:"m"`
	}
	type dup struct {
		A int `param:"x"`
		B int `param:"x"`
	}
	type badBound struct {
		A int `param:"a" min:"one"`
	}
	for name, f := range map[string]func(){
		"unit on int": func() { specOf(unitOnInt{}) },
		"map field":   func() { specOf(badType{}) },
		"duplicate":   func() { specOf(dup{}) },
		"bad bound":   func() { specOf(badBound{}) },
		"not struct":  func() { specOf(3) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
