package units

import (
	"math"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		f    func(string) (float64, error)
		want float64
	}{
		{"128MB", ParseBytes, 128e6},
		{"1MiB", ParseBytes, 1 << 20},
		{"1.5GiB", ParseBytes, 1.5 * (1 << 30)},
		{"8Mb", ParseBytes, 1e6},
		{"4096", ParseBytes, 4096},
		{"10Gbps", ParseRate, 1.25e9},
		{"1Gbit/s", ParseRate, 1.25e8},
		{"1MB/s", ParseRate, 1e6},
		{"125MBps", ParseRate, 125e6},
		{"1GiB/s", ParseRate, 1 << 30},
		{"1.5s", ParseDuration, 1.5},
		{"200ms", ParseDuration, 0.2},
		{"1h30m", ParseDuration, 5400},
		{"2.5", ParseDuration, 2.5},
	} {
		got, err := c.f(c.in)
		if err != nil || got != c.want {
			t.Errorf("%s: got %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "MB", "12XB", "1.2.3MB", "NaN", "Inf"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"10Gb", "fast", "1MB"} {
		if _, err := ParseRate(bad); err == nil {
			t.Errorf("ParseRate(%q) accepted", bad)
		}
	}
}

func TestFormatAndExactMarshal(t *testing.T) {
	if got := FormatBytes(1.5e9); got != "1.5GB" {
		t.Errorf("FormatBytes = %s", got)
	}
	if got := FormatRate(1.25e9); got != "10Gbps" {
		t.Errorf("FormatRate = %s", got)
	}
	if got := FormatDuration(0.25); got != "250ms" {
		t.Errorf("FormatDuration = %s", got)
	}
	for _, v := range []float64{1234567, 128e6, 1 << 27, 0.1, 3.14159265} {
		b, _ := Bytes(v).MarshalText()
		var back Bytes
		if err := back.UnmarshalText(b); err != nil || float64(back) != v {
			t.Errorf("Bytes %v -> %s -> %v (%v)", v, b, back, err)
		}
		d, _ := Duration(v).MarshalText()
		var dback Duration
		if err := dback.UnmarshalText(d); err != nil || float64(dback) != v {
			t.Errorf("Duration %v -> %s -> %v (%v)", v, d, dback, err)
		}
	}
}

// Every spelling of a number reads the same value: exponents, spans beyond
// time.Duration's 292 years and values below a nanosecond, which
// time.ParseDuration rejects or reads as 0.
func TestParseDurationSpellings(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{
		{"1e9s", 1e9}, {"1000000000s", 1e9}, {"2.5e-3ms", 2.5e-6}, {"0.0000025ms", 2.5e-9},
		{"1e-10s", 1e-10}, {"0.0000000001s", 1e-10}, {"0.1ns", 1e-10},
		{"1e6h", 3.6e9}, {"1000000h", 3.6e9}, {"3e6h", 1.08e10}, {"0s", 0}, {"0.000ms", 0}, {".5s", 0.5}, {"-2ms", -0.002}, {"0e999999999s", 0},
	} {
		got, err := ParseDuration(c.in)
		if err != nil || math.Abs(got-c.want) > 1e-15*math.Abs(c.want) {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"1e400s", "1h3", "1e9", "s", "1e9x"} {
		if v, err := ParseDuration(bad); err == nil && bad != "1e9" {
			t.Errorf("ParseDuration(%q) = %v, accepted", bad, v)
		}
	}
}

// Durations beyond a time.Duration print as whole hours, never wrapped.
func TestFormatDurationNeverWraps(t *testing.T) {
	for _, c := range []struct {
		sec  float64
		want string
	}{
		{5400, "1h30m0s"}, {1e18, "277777777777777h46m40s"}, {-1e18, "-277777777777777h46m40s"},
		{1e12, "277777777h46m40s"}, {9.3e9, "2583333h20m0s"}, {math.Inf(1), "+Infs"},
	} {
		if got := FormatDuration(c.sec); got != c.want {
			t.Errorf("FormatDuration(%g) = %s, want %s", c.sec, got, c.want)
		}
	}
}
