package experiment

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// progress reports cells as they finish: a bar on a terminal, a log line
// every few seconds otherwise (batch logs must stay readable).
type progress interface {
	cellDone(failed bool)
	finish()
}

// newProgress picks the reporter for w; nil w reports nothing.
func newProgress(w io.Writer, name string, total int, every time.Duration) progress {
	if w == nil || total == 0 {
		return nopProgress{}
	}
	if f, ok := w.(*os.File); ok && isTerminal(f) {
		p := mpb.New(mpb.WithOutput(f), mpb.WithWidth(40))
		bar := p.AddBar(int64(total),
			mpb.PrependDecorators(decor.Name(name+" "), decor.CountersNoUnit("%d/%d cells")),
			mpb.AppendDecorators(decor.Percentage(decor.WCSyncSpace), decor.Name(" "), decor.AverageETA(decor.ET_STYLE_GO)))
		return &barProgress{p: p, bar: bar}
	}
	lp := &logProgress{w: w, name: name, total: total, start: time.Now(), stop: make(chan struct{}), stopped: make(chan struct{})}
	go lp.tick(every)
	return lp
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

type nopProgress struct{}

func (nopProgress) cellDone(bool) {}
func (nopProgress) finish()       {}

type barProgress struct {
	p   *mpb.Progress
	bar *mpb.Bar
}

func (b *barProgress) cellDone(bool) { b.bar.Increment() }
func (b *barProgress) finish() {
	if !b.bar.Completed() {
		b.bar.Abort(false) // a sweep stopped early: end the bar where it is
	}
	b.p.Wait()
}

type logProgress struct {
	w             io.Writer
	name          string
	total         int
	start         time.Time
	mu            sync.Mutex
	done, failed  int
	stop, stopped chan struct{}
}

func (l *logProgress) cellDone(failed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done++
	if failed {
		l.failed++
	}
}

func (l *logProgress) tick(every time.Duration) {
	defer close(l.stopped)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			l.line()
		case <-l.stop:
			return
		}
	}
}

func (l *logProgress) line() {
	l.mu.Lock()
	defer l.mu.Unlock()
	el := time.Since(l.start)
	eta := ""
	if l.done > 0 && l.done < l.total {
		left := time.Duration(float64(el) / float64(l.done) * float64(l.total-l.done))
		eta = fmt.Sprintf(", about %s left", left.Round(time.Second))
	}
	fmt.Fprintf(l.w, "%s: %d/%d cells done, %d failed, %s elapsed%s\n", l.name, l.done, l.total, l.failed, el.Round(100*time.Millisecond), eta)
}

func (l *logProgress) finish() {
	close(l.stop)
	<-l.stopped
	l.line()
}
