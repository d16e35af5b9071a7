package scenario

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/netsched/netsched/internal/units"
	"github.com/netsched/netsched/workload"
	"pgregory.net/rapid"
)

type distHolder struct {
	B BytesDist    `yaml:"b,omitempty"`
	D DurationDist `yaml:"d,omitempty"`
	N NumberDist   `yaml:"n,omitempty"`
}

func decodeHolder(t *testing.T, text string) (distHolder, error) {
	t.Helper()
	src, err := parseDocument("t.yaml", []byte(text))
	if err != nil {
		return distHolder{}, err
	}
	var h distHolder
	err = decodeNode(src, src.body, &h)
	return h, err
}

func TestDistForms(t *testing.T) {
	type d = workload.Dist
	for _, c := range []struct {
		text string
		want distHolder
	}{
		{"b: 128MB", distHolder{B: BytesDist{Kind: workload.Const, A: 128e6}}},
		{"b: 1GiB", distHolder{B: BytesDist{Kind: workload.Const, A: 1 << 30}}},
		{"b: 1024", distHolder{B: BytesDist{Kind: workload.Const, A: 1024}}},
		{"b: 0", distHolder{B: BytesDist{Kind: workload.Const}}},
		{"b: {dist: uniform, min: 64MB, max: 256MB}", distHolder{B: BytesDist(d{Kind: workload.Uniform, A: 64e6, B: 256e6})}},
		{"b: {dist: lognormal, median: 10MB, sigma: 0.5}", distHolder{B: BytesDist(d{Kind: workload.LogNormal, A: 10e6, B: 0.5})}},
		{"b: {dist: pareto, scale: 1kB, shape: 1.5}", distHolder{B: BytesDist(d{Kind: workload.Pareto, A: 1e3, B: 1.5})}},
		{"b: {dist: const, value: 8Mb}", distHolder{B: BytesDist(d{Kind: workload.Const, A: 1e6})}},
		{"d: 1.5s", distHolder{D: DurationDist{Kind: workload.Const, A: 1.5}}},
		{"d: 200ms", distHolder{D: DurationDist{Kind: workload.Const, A: 0.2}}},
		{"d: 3", distHolder{D: DurationDist{Kind: workload.Const, A: 3}}},
		{"d: {dist: exponential, mean: 2m}", distHolder{D: DurationDist(d{Kind: workload.Exponential, A: 120})}},
		{"n: 2", distHolder{N: NumberDist{Kind: workload.Const, A: 2}}},
		{"n: {dist: zipf, exponent: 1.1}", distHolder{N: NumberDist(d{Kind: workload.Zipf, A: 1.1})}},
		{"n: {dist: uniform, min: 0.5, max: 2}", distHolder{N: NumberDist(d{Kind: workload.Uniform, A: 0.5, B: 2})}},
	} {
		got, err := decodeHolder(t, c.text)
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.text, diff)
		}
		// And back: the encoding reads back to the same value.
		data, err := yamlMarshal(got)
		if err != nil {
			t.Fatal(err)
		}
		back, err := decodeHolder(t, string(data))
		if err != nil || back != got {
			t.Errorf("%s: re-encoded as %q, read back %+v, %v", c.text, data, back, err)
		}
	}
}

func TestDistErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"b: [1]", "t.yaml:1:4: b: expected a size or a mapping like {dist: uniform, min: ..., max: ...}, got a sequence"},
		{"b: {dist: uniform, min: 1MB, max: []}", "t.yaml:1:35: b.max: expected a size, got a sequence"},
		{"b: {dist: lognormal, median: 1MB, sigma: 1MB}", `t.yaml:1:42: b.sigma: "1MB" is not a number`},
		{"d: {dist: exponential, mean: soon}", `t.yaml:1:30: d.mean: duration "soon": expected a number of seconds or a value like 1.5s, 200ms, 2h`},
		{"n: {dist: pareto, scale: 1, shape: 0}", "t.yaml:1:4: n: pareto needs scale > 0 and shape >= 0.5 (a smaller shape overflows in the tail), got 1, 0"},
		{"d: {dist: zipf, exponent: 1}", "t.yaml:1:11: d.dist: zipf gives rank weights and is only allowed for share"},
		{"n: -0.5", "t.yaml:1:4: n: number -0.5 is negative; expected a value >= 0"},
	} {
		_, err := decodeHolder(t, c.text)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.text, err, c.want)
		}
	}
}

func TestExactFormats(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{exactBytes(128e6), "128MB"},
		{exactBytes(1234567), "1234567"},
		{exactBytes(64 << 20), "64MiB"},
		{exactBytes(1.5e9), "1.5GB"},
		{exactBytes(0), "0B"},
		{exactDuration(90), "90s"},
		{exactDuration(0.25), "250ms"},
		{exactDuration(0.1234567), "123.4567ms"},
		{exactDuration(0.12345678912), "0.12345678912"},
		{exactDuration(3600.5), "3600.5"},
		{exactRate(1.25e9), "10Gbps"},
		{exactRate(1e6), "8Mbps"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// Encoding never loses a value: every finite non-negative number reads back
// bit-for-bit.
func TestExactFormatsRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.Float64Range(0, 1e18).Draw(t, "v")
		if math.IsNaN(v) {
			t.Skip()
		}
		for _, f := range []struct {
			format func(float64) string
			parse  func(string) (float64, error)
		}{{exactBytes, units.ParseBytes}, {exactDuration, units.ParseDuration}, {exactRate, units.ParseRate}} {
			s := f.format(v)
			back, err := f.parse(s)
			if err != nil || back != v {
				t.Fatalf("%v -> %q -> %v, %v", v, s, back, err)
			}
		}
	})
}
