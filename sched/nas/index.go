package nas

import (
	"iter"
	"math"
	"math/bits"

	"github.com/netsched/netsched/sched"
	"github.com/netsched/netsched/sched/internal/mapreduce"
)

// Indexes kept on lifecycle events so that a decision visits only the jobs
// that can take part in it: per user, the jobs with waiting
// maps and those with waiting reducers, each in arrival order, and a bound
// on the predicted output of any waiting map, which lets MTS stop at the
// first data-local map no later one can beat.

// seqSet is a set of a user's arrival numbers, iterated in order; empty
// runs are skipped 64 and 4,096 numbers at a time.
type seqSet struct {
	words []uint64
	sum   []uint64 // bit w: words[w] != 0
	n     int      // members
}

func (s *seqSet) add(i int) {
	w := i >> 6
	for w >= len(s.words) {
		s.words = append(s.words, 0)
	}
	for w>>6 >= len(s.sum) {
		s.sum = append(s.sum, 0)
	}
	if s.words[w]&(1<<(i&63)) == 0 {
		s.n++
	}
	s.words[w] |= 1 << (i & 63)
	s.sum[w>>6] |= 1 << (w & 63)
}

func (s *seqSet) remove(i int) {
	if !s.has(i) {
		return
	}
	w := i >> 6
	s.n--
	s.words[w] &^= 1 << (i & 63)
	if s.words[w] == 0 {
		s.sum[w>>6] &^= 1 << (w & 63)
	}
}

func (s *seqSet) has(i int) bool {
	w := i >> 6
	return w < len(s.words) && s.words[w]&(1<<(i&63)) != 0
}

// next is the smallest member >= i, or -1.
func (s *seqSet) next(i int) int {
	w := i >> 6
	if w >= len(s.words) {
		return -1
	}
	if x := s.words[w] >> (i & 63); x != 0 {
		return i + bits.TrailingZeros64(x)
	}
	w++
	for g := w >> 6; g < len(s.sum); g++ {
		x := s.sum[g]
		if g == w>>6 {
			x &= ^uint64(0) << (w & 63)
		}
		if x != 0 {
			w = g<<6 + bits.TrailingZeros64(x)
			return w<<6 + bits.TrailingZeros64(s.words[w])
		}
	}
	return -1
}

// each iterates the jobs of one of u's sets in arrival order; members may
// leave the set meanwhile.
func (u *user) each(set *seqSet) iter.Seq[*job] {
	return func(yield func(*job) bool) {
		for i := set.next(0); i >= 0; i = set.next(i + 1) {
			if !yield(u.bySeq[i]) {
				return
			}
		}
	}
}

// mapJobs are u's jobs with waiting maps, redJobs those with waiting
// reducers, in arrival order.
func (u *user) mapJobs() iter.Seq[*job] { return u.each(&u.waitMaps) }
func (u *user) redJobs() iter.Seq[*job] { return u.each(&u.waitReds) }

// jobHeap is a binary heap of the jobs with waiting maps: by outBound,
// largest first, or (low) by lowBound, smallest first, then arrival.
type jobHeap struct {
	js  []*job
	low bool
}

func (h *jobHeap) pos(j *job) *int {
	if h.low {
		return &j.lpos
	}
	return &j.hpos
}

func (h *jobHeap) less(a, b int) bool {
	x, y := h.js[a], h.js[b]
	if h.low {
		return x.lowBound < y.lowBound || x.lowBound == y.lowBound && x.seq < y.seq
	}
	return x.outBound > y.outBound
}

func (h *jobHeap) swap(a, b int) {
	h.js[a], h.js[b] = h.js[b], h.js[a]
	*h.pos(h.js[a]), *h.pos(h.js[b]) = a, b
}

func (h *jobHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h *jobHeap) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h.js) {
			return
		}
		if c+1 < len(h.js) && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			return
		}
		h.swap(i, c)
		i = c
	}
}

func (h *jobHeap) push(j *job) {
	*h.pos(j) = len(h.js)
	h.js = append(h.js, j)
	h.up(len(h.js) - 1)
}

func (h *jobHeap) remove(j *job) {
	i, last := *h.pos(j), len(h.js)-1
	if i != last {
		h.swap(i, last)
	}
	h.js[last] = nil
	h.js = h.js[:last]
	if i != last {
		h.fix(i)
	}
	*h.pos(j) = -1
}

func (h *jobHeap) fix(i int) {
	h.up(i)
	h.down(i)
}

// top is the largest outBound (the smallest lowBound when low), -Inf
// (+Inf) when empty.
func (h *jobHeap) top() float64 {
	switch {
	case len(h.js) == 0 && h.low:
		return math.Inf(1)
	case len(h.js) == 0:
		return math.Inf(-1)
	case h.low:
		return h.js[0].lowBound
	}
	return h.js[0].outBound
}

// mapBounds records, at arrival, what bounds the predicted output of the
// job's maps (their estimates are fixed for the job's life).
func (s *Scheduler) mapBounds(v sched.View, j *job) {
	j.minIn, j.maxIn, j.minOut = math.Inf(1), math.Inf(-1), math.Inf(1)
	for _, st := range j.maps {
		if !mapreduce.Shuffled(st) {
			j.plainMaps = true
			continue
		}
		for _, t := range st.Tasks() {
			e := v.Estimate(t)
			j.maxOut = math.Max(j.maxOut, e.Output)
			j.minOut = math.Min(j.minOut, e.Output)
			if e.Input > 0 {
				j.minIn, j.maxIn = math.Min(j.minIn, e.Input), math.Max(j.maxIn, e.Input)
			} else {
				j.noInput = true
			}
		}
	}
}

// outputBounds bounds mapOutput of any of j's maps now: low <= output <=
// high. Rounding is monotone, so ratio×input lies between ratio×minIn and
// ratio×maxIn. NaN sizes give no bound (-Inf, +Inf): MTS then scans every
// job.
func (s *Scheduler) outputBounds(j *job) (low, high float64) {
	low, high = math.Inf(1), 0 // high: maps of stages nobody reads predict 0
	add := func(v float64) { low, high = min(low, v), max(high, v) }
	switch {
	case bool(s.cfg.KnownShuffle):
		low, high = j.minOut, max(high, j.maxOut)
	default:
		if j.maxIn >= j.minIn {
			r := j.pred.Ratio()
			add(r * j.minIn)
			add(r * j.maxIn)
		}
		if j.noInput {
			add(j.pred.Output(0))
		}
	}
	if math.IsNaN(low) {
		low = math.Inf(-1)
	}
	if math.IsNaN(high) {
		high = math.Inf(1)
	}
	if j.plainMaps {
		low = 0 // those maps predict 0
	}
	return low, high
}

// index brings j's place in its user's indexes up to date after its tasks
// or its prediction changed.
func (s *Scheduler) index(j *job) {
	u := j.u
	inMaps := j.tasks.WaitingMaps > 0
	j.lowBound, j.outBound = s.outputBounds(j)
	switch {
	case inMaps && j.hpos < 0:
		u.waitMaps.add(j.seq)
		u.outs.push(j)
		u.lows.push(j)
	case !inMaps && j.hpos >= 0:
		u.waitMaps.remove(j.seq)
		u.outs.remove(j)
		u.lows.remove(j)
		u.forgetLocal(j)
	case inMaps:
		u.outs.fix(j.hpos)
		u.lows.fix(j.lpos)
	}
	if unp := inMaps && !s.predicted(j); unp != j.unpredCounted {
		j.unpredCounted = unp
		if unp {
			u.unpredicted++
		} else {
			u.unpredicted--
		}
	}
	if j.tasks.WaitingReduces > 0 {
		u.waitReds.add(j.seq)
	} else {
		u.waitReds.remove(j.seq)
	}
}

// compactMin is the shortest list compacted: a user's arrival numbers, the
// scheduler's job list (tests lower it to compact often).
var compactMin = 1024

// join gives j its arrival number in its user's indexes.
func (u *user) join(j *job) {
	j.seq, j.hpos, j.lpos = len(u.bySeq), -1, -1
	u.bySeq = append(u.bySeq, j)
	u.active++
}

// leave takes finished j out of its user's indexes, renumbering the user's
// jobs when most numbers are free so the sets stay short.
func (u *user) leave(j *job) {
	u.waitMaps.remove(j.seq)
	u.waitReds.remove(j.seq)
	if j.hpos >= 0 {
		u.outs.remove(j)
		u.lows.remove(j)
	}
	u.forgetLocal(j)
	if j.unpredCounted {
		j.unpredCounted = false
		u.unpredicted--
	}
	u.bySeq[j.seq] = nil
	u.active--
	if len(u.bySeq) < compactMin || 4*u.active > len(u.bySeq) {
		return
	}
	old := u.bySeq
	u.bySeq = make([]*job, 0, 2*u.active)
	u.waitMaps, u.waitReds, u.anyLocal = seqSet{}, seqSet{}, seqSet{}
	clear(u.local)
	for _, x := range old {
		if x == nil {
			continue
		}
		x.seq = len(u.bySeq)
		u.bySeq = append(u.bySeq, x)
		if x.hpos >= 0 {
			u.waitMaps.add(x.seq)
		}
		if x.tasks.WaitingReduces > 0 {
			u.waitReds.add(x.seq)
		}
		u.relistLocal(x)
	}
}
