package queue

import (
	"fmt"
	"strings"

	"github.com/netsched/netsched/sched"
)

// queue is a node of the queue tree. Only leaves hold apps; the counters of
// every queue sum its subtree and follow lifecycle events.
type queue struct {
	queueSpec
	path       string
	parent     *queue
	children   []*queue
	jobsGoHere bool // a configured leaf that jobs may name

	ready readyApps         // leaf: its apps with waiting tasks, best first
	users map[string]*queue // per-user sub-leaves (user_weights)

	running, waiting int
	byUser           map[string]int // running tasks per user (capacity)
	demand           float64        // running+waiting capped by max share, per offer
	absCap, absMax   float64        // capacity: fractions of the cluster

	kids []*queue // scratch for ordering children
}

// app is the per-job state every scheduler here keeps.
type app struct {
	job    sched.Job
	leaf   *queue
	weight float64
	req    [priorities]request

	// delay scheduling (§3)
	skips   int
	level   sched.Locality
	wait    float64
	skipped bool

	// the leaf's ready heap (readyApps)
	key   share // share() when last synced; the heap orders by it
	hidx  int   // index in the leaf's heap + 1; 0: not in it
	dirty bool  // queued in tree.dirty: share() may have changed
	gone  bool  // finished
}

// request is YARN's per (app, priority) locality state.
type request struct {
	opportunities int
	allowed       sched.Locality // fair: NoPreference until first evaluated
}

func (a *app) share() share {
	j := a.job
	return share{usage: float64(j.Running()), demand: float64(j.Running() + j.Waiting()), weight: a.weight, start: j.Arrival(), seq: j.Seq()}
}

func (q *queue) share() share {
	return share{usage: float64(q.running), demand: q.demand, minShare: q.MinShare, weight: q.Weight, name: q.path}
}

// refreshDemand recomputes demands bottom-up, capped by max share at every
// level (FSLeafQueue/FSParentQueue.updateDemand).
func (q *queue) refreshDemand() {
	d := float64(q.running + q.waiting)
	if len(q.children) > 0 {
		d = 0
		for _, c := range q.children {
			c.refreshDemand()
			d += c.demand
		}
	}
	q.demand = min(d, q.MaxShare)
}

// tree is the queue hierarchy and the routing of jobs to leaves.
type tree struct {
	root        *queue
	byName      map[string]*queue
	byPath      map[string]*queue
	apps        map[sched.Job]*app
	autoCreate  bool
	created     queueSpec          // spec of auto-created queues
	userWeights map[string]float64 // nil: no user level
	err         error              // the first job that could not be routed
	dirty       []*app             // apps whose share may have changed since the last offer
}

// buildTree links the specs under a root built from rootSpec; parents are
// named, any order, and must exist; cycles are errors.
func buildTree(specs []queueSpec, rootSpec queueSpec) (*tree, error) {
	rootSpec.Name = "root"
	root := &queue{queueSpec: rootSpec, path: "root"}
	t := &tree{root: root, byName: map[string]*queue{}, byPath: map[string]*queue{}, apps: map[sched.Job]*app{}}
	nodes := make([]*queue, len(specs))
	for i, s := range specs {
		if t.byName[s.Name] != nil {
			return nil, fmt.Errorf("queue %q is declared twice", s.Name)
		}
		nodes[i] = &queue{queueSpec: s}
		t.byName[s.Name] = nodes[i]
	}
	for _, q := range nodes {
		switch q.Parent {
		case "", "root":
			q.parent = root
		default:
			q.parent = t.byName[q.Parent]
			if q.parent == nil {
				return nil, fmt.Errorf("queue %q: parent %q is not declared", q.Name, q.Parent)
			}
		}
	}
	for _, q := range nodes {
		p := q.parent
		for steps := 0; p != root; steps++ {
			if steps > len(nodes) {
				return nil, fmt.Errorf("queue %q: its parents form a cycle", q.Name)
			}
			p = p.parent
		}
		q.parent.children = append(q.parent.children, q)
	}
	var setPaths func(q *queue)
	setPaths = func(q *queue) {
		for _, c := range q.children {
			c.path = q.path + "." + c.Name
			t.byPath[c.path] = c
			setPaths(c)
		}
	}
	t.byPath["root"] = root
	setPaths(root)
	for _, q := range nodes {
		q.jobsGoHere = len(q.children) == 0
	}
	return t, nil
}

// each visits every queue below root, parents first.
func (t *tree) each(fn func(q *queue) error) error {
	var walk func(q *queue) error
	walk = func(q *queue) error {
		for _, c := range q.children {
			if err := fn(c); err != nil {
				return err
			}
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(t.root)
}

// lookup finds a queue by name or by path (the root. prefix optional).
func (t *tree) lookup(name string) *queue {
	if q := t.byName[name]; q != nil {
		return q
	}
	if q := t.byPath[name]; q != nil {
		return q
	}
	return t.byPath["root."+name]
}

// leafFor routes a job to its leaf queue (and its user's sub-leaf).
func (t *tree) leafFor(j sched.Job) (*queue, error) {
	q := t.lookup(j.Queue())
	if q == nil {
		if !t.autoCreate {
			return nil, fmt.Errorf("job %q names queue %q, which is not configured (leaf queues: %s); declare it in params.queues", j.ID(), j.Queue(), t.leafNames())
		}
		s := t.created
		s.Name = j.Queue()
		q = &queue{queueSpec: s, path: "root." + j.Queue(), parent: t.root, jobsGoHere: true}
		t.root.children = append(t.root.children, q)
		t.byName[j.Queue()] = q
		t.byPath[q.path] = q
	}
	if !q.jobsGoHere {
		return nil, fmt.Errorf("job %q names queue %q, which is a parent queue; jobs go to leaf queues (%s)", j.ID(), j.Queue(), t.leafNames())
	}
	if t.userWeights != nil {
		q = q.userLeaf(j.User(), t.userWeights)
	}
	return q, nil
}

func (t *tree) leafNames() string {
	var names []string
	t.each(func(q *queue) error {
		if q.jobsGoHere {
			names = append(names, q.path)
		}
		return nil
	})
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// userLeaf is the sub-leaf of user u, created on first use with the user's
// weight and the leaf's policy.
func (q *queue) userLeaf(u string, weights map[string]float64) *queue {
	if c := q.users[u]; c != nil {
		return c
	}
	w, ok := weights[u]
	if !ok {
		w = 1
	}
	s := queueSpec{Name: u, Policy: q.Policy, Weight: w, MaxShare: inf}
	c := &queue{queueSpec: s, path: q.path + "." + u, parent: q}
	if q.users == nil {
		q.users = map[string]*queue{}
	}
	q.users[u] = c
	q.children = append(q.children, c)
	return c
}

// observe keeps apps and counters in step with the engine.
func (t *tree) observe(e sched.Event) {
	if e.Kind == sched.JobArrived {
		q, err := t.leafFor(e.Job)
		if err != nil {
			if t.err == nil {
				t.err = err
			}
			return
		}
		a := &app{job: e.Job, leaf: q, weight: 1}
		t.apps[e.Job] = a
		t.touch(a)
		return
	}
	a := t.apps[e.Job]
	if a == nil {
		return // a job that could not be routed
	}
	switch e.Kind {
	case sched.StageReady:
		a.count(0, e.Stage.NumTasks())
		t.touch(a)
	case sched.TaskStarted:
		a.count(1, -1)
		t.touch(a)
	case sched.TaskFinished:
		a.count(-1, 0)
		t.touch(a)
	case sched.JobFinished:
		a.leaf.ready.remove(a)
		a.gone = true
		delete(t.apps, e.Job)
	}
}

// touch queues a for a re-sync of its place in its leaf's ready heap at the
// next offer: every change of what share() reads (the job's running and
// waiting tasks) comes with a lifecycle event, or with a placement.
func (t *tree) touch(a *app) {
	if !a.dirty {
		a.dirty = true
		t.dirty = append(t.dirty, a)
	}
}

// sync brings the ready heaps up to date with the apps touched since the
// last offer: an app is in its leaf's heap iff its job has waiting tasks,
// keyed by its current share. Cost: O(log n) per touched app.
func (t *tree) sync() {
	for _, a := range t.dirty {
		a.dirty = false
		if a.gone {
			continue
		}
		r := &a.leaf.ready
		if a.job.Waiting() > 0 {
			r.set(a, a.share(), a.leaf.Policy == "fifo")
		} else {
			r.remove(a)
		}
	}
	clear(t.dirty)
	t.dirty = t.dirty[:0]
}

func (a *app) count(running, waiting int) {
	for q := a.leaf; q != nil; q = q.parent {
		q.running += running
		q.waiting += waiting
	}
	if running != 0 {
		if a.leaf.byUser == nil {
			a.leaf.byUser = map[string]int{}
		}
		a.leaf.byUser[a.job.User()] += running
	}
}
