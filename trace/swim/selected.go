package swim

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"sort"

	"github.com/netsched/netsched/scenario"
	"github.com/netsched/netsched/workload"
)

// The "swim-select" format is a SWIM file with a selection of its jobs
// (JobPacker §5.1: 1,000 jobs of the Facebook traces matching Table 1's
// shuffle percentiles) and arrivals of the experiment's own (a batch, or
// uniform over a window). It takes every "swim" option plus
// select_shuffle, arrival and arrival_window (docs/reproductions/
// jobpacker.md). It is registered here rather than in trace/register so
// that the "swim" format and its options stay exactly as they are.
func init() { scenario.RegisterFormat("swim-select", OpenSelect) }

// OpenSelect is the scenario.Opener of the "swim-select" format.
func OpenSelect(path string, options map[string]any, sc *scenario.Scenario) (workload.Source, error) {
	cfg, err := parseOptions(options, sc, true)
	if err != nil {
		return nil, fmt.Errorf("swim-select options: %w", err)
	}
	return open(path, cfg, sc)
}

// Streams of the selection's random draws, apart from the labels' so that
// switching labels on never changes which jobs are picked.
const (
	pickStream    = 0x5e1ec7
	arrivalStream = 0xa771fa1
)

// wholeFile reports whether the configuration needs every record before
// the first job: a stratified selection, or arrivals that reorder jobs.
func (c *Config) wholeFile() bool { return c.Strata != nil || c.Arrivals.Mode != "trace" }

// openSelected reads the records in the window, picks the jobs (every
// record, or Strata's sample of MaxJobs by trace shuffle bytes), gives
// them their arrivals, sorts them by arrival (ties in trace order) and
// labels them in that order. The result is a fixed list: a selection of
// 1,000 jobs costs a few kilobytes per job.
func openSelected(path string, cfg Config) (workload.Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := readWindow(NewReader(path, f), &cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Strata != nil {
		sizes := make([]float64, len(recs))
		for i, r := range recs {
			sizes[i] = r.Shuffle
		}
		idx, err := cfg.Strata.Pick(sizes, cfg.MaxJobs, rand.New(rand.NewPCG(cfg.Seed, pickStream)))
		if err != nil {
			return nil, fmt.Errorf("%s: select_shuffle: %w", path, err)
		}
		picked := make([]Record, len(idx))
		for i, k := range idx {
			picked[i] = recs[k]
		}
		recs = picked
	} else if cfg.MaxJobs > 0 && len(recs) > cfg.MaxJobs {
		recs = recs[:cfg.MaxJobs]
	}
	submits := make([]float64, len(recs))
	for i, r := range recs {
		submits[i] = cfg.Arrival(r.Submit)
	}
	at := cfg.Arrivals.Draw(submits, rand.New(rand.NewPCG(cfg.Seed, arrivalStream)))
	order := make([]int, len(recs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return at[order[a]] < at[order[b]] })
	cfg.Labels.Start(cfg.Seed, labelStream)
	jobs := make([]workload.Job, len(recs))
	for i, k := range order {
		jobs[i] = cfg.Job(recs[k], at[k])
		cfg.Labels.Apply(&jobs[i])
	}
	return &workload.SliceSource{Jobs: jobs}, nil
}

// readWindow reads every record submitted inside the selection's window.
func readWindow(r *Reader, cfg *Config) ([]Record, error) {
	var recs []Record
	for {
		rec, ok, err := r.Next()
		if err != nil || !ok {
			return recs, err
		}
		keep, stop := cfg.Keep(rec.Submit)
		if stop {
			return recs, nil
		}
		if keep {
			recs = append(recs, rec)
		}
	}
}

// closeSource closes a source that holds a file.
func closeSource(s workload.Source) {
	if c, ok := s.(io.Closer); ok {
		c.Close()
	}
}
