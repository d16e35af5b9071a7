package swim

import (
	"fmt"
	"io"
	"os"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/trace/jobmodel"
	"github.com/netsched/netsched/workload"
)

// Config says how records become jobs.
type Config struct {
	jobmodel.Params    // map/reduce counts and compute times
	jobmodel.Selection // window, max_jobs, size and time scaling
	Labels             jobmodel.Labels
	Seed               uint64 // labelling stream seed (default: the scenario's)
	// Strata, when set, picks MaxJobs jobs so that their shuffle bytes
	// follow given quantiles (select_shuffle; JobPacker Table 1), and
	// Arrivals replaces the submit times (arrival: batch or uniform). Both
	// need the whole file before the first job (see selected.go).
	Strata   *jobmodel.Strata
	Arrivals jobmodel.Arrivals
}

// ParseOptions reads the "swim" format's options (see docs/workloads.md);
// sc supplies the block size, slow-start, cluster slots and seed.
func ParseOptions(options map[string]any, sc *scenario.Scenario) (Config, error) {
	return parseOptions(options, sc, false)
}

// parseOptions reads the swim options, and with selecting those of the
// "swim-select" format too (select_shuffle, arrival, arrival_window).
func parseOptions(options map[string]any, sc *scenario.Scenario, selecting bool) (Config, error) {
	o := jobmodel.NewOptions(options)
	c := Config{
		Params:    jobmodel.ParseParams(o, sc),
		Selection: jobmodel.ParseSelection(o),
		Labels:    jobmodel.ParseLabels(o, 0),
		Arrivals:  jobmodel.Arrivals{Mode: "trace"},
	}
	if selecting {
		c.Arrivals = jobmodel.ParseArrivals(o)
		if st, ok := jobmodel.ParseStrata(o, "select_shuffle"); ok {
			c.Strata = &st
			if c.MaxJobs == 0 {
				o.Fail("select_shuffle", "needs max_jobs, the number of jobs to select")
			}
		}
	}
	var seed uint64
	if sc != nil {
		seed = sc.Seed
	}
	c.Seed = o.Seed("seed", seed)
	return c, o.Err()
}

// Job builds the job of one record, after size scaling (so the map count
// follows the scaled input, as SWIM's replay scripts scale before sizing).
func (c *Config) Job(rec Record, arrival float64) workload.Job {
	s := c.SizeScale
	if s == 0 {
		s = 1
	}
	return c.MapReduce(rec.ID, arrival, rec.Input*s, rec.Shuffle*s, rec.Output*s)
}

// labelStream separates this importer's labelling random stream.
const labelStream = 0x5317

// Source replays a SWIM file as jobs, reading one line per job.
type Source struct {
	r       *Reader
	cfg     Config
	closer  io.Closer
	emitted int
	done    bool
}

// NewSource starts a pass over r; name is used in errors.
func NewSource(name string, r io.Reader, cfg Config) *Source {
	cfg.Labels.Start(cfg.Seed, labelStream)
	return &Source{r: NewReader(name, r), cfg: cfg}
}

// Next returns the next selected job.
func (s *Source) Next() (*workload.Job, bool, error) {
	for !s.done && !s.cfg.Full(s.emitted) {
		rec, ok, err := s.r.Next()
		if err != nil || !ok {
			s.finish()
			return nil, false, err
		}
		keep, stop := s.cfg.Keep(rec.Submit)
		if stop {
			s.finish()
			break
		}
		if !keep {
			continue
		}
		j := s.cfg.Job(rec, s.cfg.Arrival(rec.Submit))
		s.cfg.Labels.Apply(&j)
		s.emitted++
		return &j, true, nil
	}
	s.finish()
	return nil, false, nil
}

func (s *Source) finish() {
	s.done = true
	s.Close()
}

// Close releases the file early (a finished pass closes it by itself).
func (s *Source) Close() error {
	if s.closer == nil {
		return nil
	}
	err := s.closer.Close()
	s.closer = nil
	return err
}

// Open is the scenario.Opener of the "swim" format. It makes one full
// validating pass first, so that a bad line anywhere in the selected part
// of the file is reported before a simulation starts, then returns a fresh
// streaming pass.
func Open(path string, options map[string]any, sc *scenario.Scenario) (workload.Source, error) {
	cfg, err := ParseOptions(options, sc)
	if err != nil {
		return nil, fmt.Errorf("swim options: %w", err)
	}
	return open(path, cfg, sc)
}

// open validates the selected part of the file, then opens a pass.
func open(path string, cfg Config, sc *scenario.Scenario) (workload.Source, error) {
	machines := 0
	if sc != nil {
		machines = len(sc.Machines)
	}
	check, err := OpenFile(path, cfg)
	if err != nil {
		return nil, err
	}
	defer closeSource(check)
	for {
		j, ok, err := check.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if err := j.Validate(machines); err != nil {
			return nil, fmt.Errorf("%s: job %s: %v", path, j.ID, err)
		}
	}
	return OpenFile(path, cfg)
}

// OpenFile starts a pass over the file at path: streaming, or over the
// selected jobs when the configuration selects or re-times them.
func OpenFile(path string, cfg Config) (workload.Source, error) {
	if cfg.wholeFile() {
		return openSelected(path, cfg)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	s := NewSource(path, f, cfg)
	s.closer = f
	return s, nil
}
