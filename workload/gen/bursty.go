package gen

import (
	"math"
	"math/rand/v2"

	"github.com/netsched/netsched/trace/jobmodel"
)

// Dawn Fig. 6(a): the Google-trace submission rate that Dawn replays over
// 12 hours, 1,417 workloads in all (§2.4); the virtual-cluster runs take
// the first 4 hours, 310 workloads, and the physical-cluster runs the final
// 4 hours, 581 workloads (§5.2). The middle 4 hours hold the rest, 526.
// Only these totals are printed; the figure's curve is not, so the rate is
// flat within each 4-hour window unless Burst modulates it.
const (
	googleWindow = 4 * 3600.0
	googleSpan   = 3 * googleWindow
)

var googleWindowTotals = [3]float64{310, 1417 - 310 - 581, 581}

// Bursty is a non-homogeneous Poisson process whose rate is piecewise
// constant over bins of Bin seconds: bin b of 4-hour window w has rate
// total_w / 4 h x f_b / mean(f over w), where f_b = exp(Burst x Z_b) with
// Z_b standard normal, drawn per pass from the seed (Burst 0: flat). The
// normalisation keeps every window's expected count at the paper's total
// whatever the draw, so a span of whole windows has exactly the expected
// count 310, 526, 581 or 1,417. Arrival times count from the span's start.
type Bursty struct {
	Start, Length float64 // span of the 12-hour profile, seconds
	Bin           float64 // seconds; divides 4 hours
	Burst         float64 // sigma of the log of the per-bin factor
}

// parseBursty reads span (first4h, middle4h, last4h, all) or span_start
// and span_length, bin and burst; they apply to arrival: bursty only.
func parseBursty(o *jobmodel.Options, active bool) Bursty {
	spanGiven := o.Has("span")
	span := o.Choice("span", "all", "first4h", "middle4h", "last4h", "all")
	b := Bursty{
		Start:  o.Duration("span_start", 0),
		Length: o.Duration("span_length", googleSpan),
		// 10-minute bins: our choice, fine enough for Dawn Fig. 6(b)'s
		// 10-minute saturated and idle periods.
		Bin: o.Duration("bin", 600),
		// Our choice: 95% of the bins' rates within 0.3x-2.4x of the window's
		// mean (two sigma); the paper prints no finer shape.
		Burst: o.Number("burst", 0.5),
	}
	custom := o.Has("span_start") || o.Has("span_length")
	for _, k := range []string{"span", "span_start", "span_length", "bin", "burst"} {
		if !active && o.Has(k) {
			o.Fail(k, "applies to arrival: bursty only")
			return b
		}
	}
	switch {
	case spanGiven && custom:
		o.Fail("span", "give span or span_start/span_length, not both")
	case !custom:
		b.Start = map[string]float64{"first4h": 0, "middle4h": googleWindow, "last4h": 2 * googleWindow, "all": 0}[span]
		b.Length = map[string]float64{"first4h": googleWindow, "middle4h": googleWindow, "last4h": googleWindow, "all": googleSpan}[span]
	case b.Length <= 0 || b.Start+b.Length > googleSpan*(1+1e-12):
		o.Fail("span_length", "the span [%gs, %gs) must be non-empty and within the 12-hour profile (43200 s)", b.Start, b.Start+b.Length)
	}
	if n := googleWindow / b.Bin; b.Bin <= 0 || math.Abs(n-math.Round(n)) > 1e-9 {
		o.Fail("bin", "%gs does not divide the 4-hour windows (14400 s)", b.Bin)
	}
	return b
}

// burstClock streams the arrivals of one pass by inverting the cumulative
// rate: each gap is a unit exponential spent through the bins' rates.
type burstClock struct {
	b     Bursty
	rng   *rand.Rand
	rates []float64 // per bin of the 12-hour profile, arrivals per second
	t     float64   // absolute time in the profile
	bin   int       // the bin holding t
	end   float64
}

func (b Bursty) start(rng *rand.Rand) *burstClock {
	perWindow := int(math.Round(googleWindow / b.Bin))
	c := &burstClock{b: b, rng: rng, rates: make([]float64, 3*perWindow), t: b.Start, end: b.Start + b.Length,
		bin: int(b.Start / b.Bin)}
	for w := range 3 {
		f := c.rates[w*perWindow : (w+1)*perWindow]
		sum := 0.0
		for i := range f {
			f[i] = math.Exp(b.Burst * rng.NormFloat64())
			sum += f[i]
		}
		for i := range f {
			f[i] *= googleWindowTotals[w] / googleWindow / (sum / float64(perWindow))
		}
	}
	return c
}

func (c *burstClock) next() (float64, bool) {
	e := c.rng.ExpFloat64()
	for ; c.t < c.end && c.bin < len(c.rates); c.bin++ {
		binEnd := min(float64(c.bin+1)*c.b.Bin, c.end)
		if c.t < binEnd {
			mass := c.rates[c.bin] * (binEnd - c.t)
			if e < mass {
				c.t += e / c.rates[c.bin]
				return c.t - c.b.Start, true
			}
			e -= mass
			c.t = binEnd
		}
	}
	return 0, false
}
