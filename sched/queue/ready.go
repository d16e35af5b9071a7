package queue

// readyApps is a leaf's apps with waiting tasks, as a binary heap ordered
// by the leaf's comparator (fifoBefore or fairBefore) over each app's key,
// the share it had when last synced (tree.sync). Keys change only through
// set, so the heap stays consistent; apps compare as a strict total order
// (submission order breaks every tie), so popping yields exactly the order
// the original walk's per-offer heap of all ready apps did.
type readyApps struct {
	h      []*app
	fifo   bool
	popped []*app // scratch for each
}

func (r *readyApps) less(a, b *app) bool {
	if r.fifo {
		return fifoBefore(a.key, b.key)
	}
	return fairBefore(a.key, b.key)
}

// set inserts a, or moves it, with key k.
func (r *readyApps) set(a *app, k share, fifo bool) {
	r.fifo = fifo
	if a.hidx == 0 {
		a.key = k
		r.h = append(r.h, a)
		a.hidx = len(r.h)
		r.up(len(r.h) - 1)
		return
	}
	if a.key == k {
		return
	}
	a.key = k
	if i := a.hidx - 1; !r.up(i) {
		r.down(i)
	}
}

// remove takes a out if it is in.
func (r *readyApps) remove(a *app) {
	if a.hidx == 0 {
		return
	}
	i, n := a.hidx-1, len(r.h)-1
	a.hidx = 0
	if i != n {
		r.h[i] = r.h[n]
		r.h[i].hidx = i + 1
	}
	r.h[n] = nil
	r.h = r.h[:n]
	if i < n && !r.up(i) {
		r.down(i)
	}
}

func (r *readyApps) pop() *app {
	a := r.h[0]
	r.remove(a)
	return a
}

// each calls fn on the apps best first until fn returns true, then puts
// back the apps it popped: O(k log n) for k apps asked.
func (r *readyApps) each(fn func(a *app) bool) {
	r.popped = r.popped[:0]
	for len(r.h) > 0 {
		a := r.pop()
		r.popped = append(r.popped, a)
		if fn(a) {
			break
		}
	}
	for _, a := range r.popped {
		r.h = append(r.h, a)
		a.hidx = len(r.h)
		r.up(len(r.h) - 1)
	}
	clear(r.popped)
	r.popped = r.popped[:0]
}

func (r *readyApps) swap(i, j int) {
	r.h[i], r.h[j] = r.h[j], r.h[i]
	r.h[i].hidx, r.h[j].hidx = i+1, j+1
}

// up sifts i towards the root; it reports whether i moved.
func (r *readyApps) up(i int) bool {
	moved := false
	for i > 0 {
		p := (i - 1) / 2
		if !r.less(r.h[i], r.h[p]) {
			break
		}
		r.swap(i, p)
		i, moved = p, true
	}
	return moved
}

func (r *readyApps) down(i int) {
	n := len(r.h)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && r.less(r.h[c+1], r.h[c]) {
			c++
		}
		if !r.less(r.h[c], r.h[i]) {
			return
		}
		r.swap(i, c)
		i = c
	}
}
