package jobmodel

// Selection picks and rescales the part of a trace to replay: an optional
// window of submit times, a cap on the number of jobs, and scale factors
// for sizes (PushBox §7.3's workload sweep scales job sizes) and arrival
// times (time_scale 0.5 submits jobs twice as fast).
type Selection struct {
	MaxJobs     int     // 0 = all
	WindowStart float64 // seconds in trace time
	WindowEnd   float64 // seconds in trace time; 0 = no end
	SizeScale   float64 // multiplies every byte count
	TimeScale   float64 // multiplies arrival times (after the window shift)
}

// ParseSelection reads max_jobs, window_start, window_end, size_scale and
// time_scale.
func ParseSelection(o *Options) Selection {
	s := Selection{
		MaxJobs:     o.Int("max_jobs", 0),
		WindowStart: o.Duration("window_start", 0),
		WindowEnd:   o.Duration("window_end", 0),
		SizeScale:   o.Positive("size_scale", 1),
		TimeScale:   o.Number("time_scale", 1),
	}
	if s.WindowEnd != 0 && s.WindowEnd <= s.WindowStart {
		o.Fail("window_end", "%gs must be after window_start %gs", s.WindowEnd, s.WindowStart)
	}
	return s
}

// Full reports that max_jobs jobs have been emitted: stop before reading
// further (so a bad line past the cap is never read).
func (s *Selection) Full(emitted int) bool { return s.MaxJobs > 0 && emitted >= s.MaxJobs }

// Keep decides about a record submitted at t (trace time): keep it, skip
// it (before the window), or stop reading (past the window: traces are
// sorted, so nothing later can qualify).
func (s *Selection) Keep(t float64) (keep, stop bool) {
	if s.WindowEnd > 0 && t >= s.WindowEnd {
		return false, true
	}
	return t >= s.WindowStart, false
}

// Arrival maps trace time to simulated arrival: shifted so that the window
// starts at 0, then scaled.
func (s *Selection) Arrival(t float64) float64 { return (t - s.WindowStart) * s.TimeScale }
