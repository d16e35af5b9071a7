package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	"github.com/spf13/cobra"

	"github.com/netsched/netsched/internal/units"
)

// profiler writes the optional CPU profile and the heap profile taken at the
// peak of the live heap: a long run's peak memory is what needs explaining,
// and a heap profile at exit shows only what is left at the end.
type profiler struct {
	cpuPath, memPath string
	memLimit         string
	prevLimit        int64
	limited          bool
	cpuFile          *os.File
	stop, done       chan struct{}
}

func addProfileFlags(root *cobra.Command) *profiler {
	p := &profiler{}
	root.PersistentFlags().StringVar(&p.cpuPath, "cpuprofile", "", "write a CPU profile to this file")
	root.PersistentFlags().StringVar(&p.memPath, "memprofile", "", "write a heap profile, taken when the live heap peaks (checked every second), to this file")
	root.PersistentFlags().StringVar(&p.memLimit, "memory-limit", "", "soft limit on the process's memory (e.g. 4GB): the garbage collector works harder near it, trading CPU time for a smaller peak (the runtime's GOMEMLIMIT)")
	return p
}

func (p *profiler) start() error {
	if p.memLimit != "" {
		b, err := units.ParseBytes(p.memLimit)
		if err != nil || !(b >= 1<<20 && b <= 1<<50) {
			return fmt.Errorf("--memory-limit %q: want a size between 1MiB and 1PiB, such as 4GB", p.memLimit)
		}
		p.prevLimit = debug.SetMemoryLimit(int64(b))
		p.limited = true
	}
	if p.cpuPath != "" {
		f, err := os.Create(p.cpuPath)
		if err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		p.cpuFile = f
	}
	if p.memPath != "" {
		if err := writeHeapProfile(p.memPath); err != nil { // fail early on a bad path
			return err
		}
		p.stop, p.done = make(chan struct{}), make(chan struct{})
		go p.watchHeap()
	}
	return nil
}

func (p *profiler) finish() error {
	var err error
	if p.limited {
		debug.SetMemoryLimit(p.prevLimit) // the process may run more commands (tests)
		p.limited = false
	}
	if p.cpuFile != nil {
		pprof.StopCPUProfile()
		err = p.cpuFile.Close()
		p.cpuFile = nil
	}
	if p.stop != nil {
		close(p.stop)
		<-p.done
		p.stop = nil
	}
	return err
}

// watchHeap rewrites the heap profile whenever the live heap (as of the last
// collection, like the profile's in-use figures) exceeds the largest seen by 5%, so the file ends up describing
// the peak within 5%.
func (p *profiler) watchHeap() {
	defer close(p.done)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var peak uint64
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		if live := sample[0].Value.Uint64(); live > peak+peak/20 {
			peak = live
			if err := writeHeapProfile(p.memPath); err != nil {
				fmt.Fprintln(os.Stderr, "netsched:", err)
				return
			}
		}
	}
}

// writeHeapProfile replaces path atomically, so a reader never sees half a profile.
func writeHeapProfile(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".memprofile-*")
	if err != nil {
		return fmt.Errorf("--memprofile: %w", err)
	}
	if err := pprof.Lookup("heap").WriteTo(tmp, 0); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("--memprofile: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("--memprofile: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("--memprofile: %w", err)
	}
	return nil
}
