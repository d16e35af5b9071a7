package pushbox

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/netsched/netsched/sched"
)

func init() {
	sched.Register(sched.Define("pushbox",
		"PushBox (TPDS'22): Peña controlled, prioritized input concurrency + critical-path task packing under Fair/FIFO intent",
		DefaultConfig(), func(c Config) (sched.Scheduler, error) { return New(c), nil }))
}

// Scheduler is PushBox. It implements sched.Global (slot-change and
// task-arrival modes), sched.FlowClasser and sched.Observer (Peña's
// per-machine priorities), sched.Heartbeater (delay scheduling counts
// opportunities), sched.Initializer and sched.Failer (check mode).
type Scheduler struct {
	cfg       Config
	rackLocal bool // rack-local sources count as local (§4)
	check     bool
	delay     int // skips before a file-reading stage takes a non-local slot

	rng  *rand.Rand // RS ablation only
	jobs map[sched.Job]*jobState
	mach []machineState
	head sched.Job // the FIFO queue's head job (§5.1 "Flow Priority")
	seq  int       // placement counter: the within-job priority order

	pass pass
	// taskArrival's scratch: free machines and their data transfer times
	// (indexed by machine), kept across decisions.
	cands []int
	dtt   []float64
	// Machines that are receiving or were at the last sample (sampleRates
	// visits only these), and the mean NIC speed, read once.
	sampling []int
	nic      float64
	ord      orderIndex // jobOrder's kept order
	rankBuf  []*entry

	// The test-only reference order's cache (oldJobOrder): the pass and
	// cluster waiting tasks refBuf was computed at.
	refBuf  []*jobState
	refPass uint32
	refAt   int
	err     error

	stats   Stats                // counters (Stats)
	jobStat map[string]*JobStats // per-job counters, by job id
}

// New builds PushBox from a Config (library use; the registry calls it).
func New(c Config) *Scheduler {
	return &Scheduler{cfg: c, jobs: map[sched.Job]*jobState{}}
}

// Config returns the scheduler's configuration.
func (s *Scheduler) Config() Config { return s.cfg }

// Err is the first violation of the priority bookkeeping found in check
// mode (nil when none was found or checking was off); as a sched.Failer it
// stops the run.
func (s *Scheduler) Err() error { return s.err }

// Heartbeats: delay scheduling counts skipped opportunities, which must keep
// coming while a skipped job's slots stay free. Without delay scheduling
// (locality_delay 0) PushBox decides only at slot changes and task
// arrivals.
func (s *Scheduler) Heartbeats() bool { return s.cfg.LocalityDelay > 0 }

// Init sizes the per-machine state and resolves the automatic settings.
func (s *Scheduler) Init(v sched.View) error {
	if s.cfg.M < 1 {
		return fmt.Errorf("pushbox: m = %d, expected at least 1", s.cfg.M)
	}
	if s.cfg.Policy != Fair && s.cfg.Policy != FIFO {
		return fmt.Errorf("pushbox: policy %q, expected fair or fifo", s.cfg.Policy)
	}
	if s.cfg.RateWindow <= 0 || s.cfg.LocalityDelay < 0 || s.cfg.SmallFIFO < 0 {
		return fmt.Errorf("pushbox: rate_window must be > 0, locality_delay and small_fifo >= 0")
	}
	n := v.NumMachines()
	s.jobs, s.head, s.seq, s.err = map[sched.Job]*jobState{}, sched.Job{}, 0, nil
	s.stats, s.jobStat = Stats{}, map[string]*JobStats{}
	s.ord, s.refPass = orderIndex{}, 0
	s.mach = make([]machineState, n)
	for i := range n {
		s.mach[i] = machineState{rate: v.Machine(i).NIC(), lastT: v.Now()}
	}
	switch s.cfg.RackLocal {
	case "on":
		s.rackLocal = true
	case "off":
		s.rackLocal = false
	case "auto", "":
		s.rackLocal = v.Oversubscribed()
	default:
		return fmt.Errorf("pushbox: rack_local %q, expected auto, on or off", s.cfg.RackLocal)
	}
	s.check = s.cfg.Check || v.Checking()
	// locality_delay is a fraction of the machines, a parameter: not queue.DefaultSkips.
	s.delay = int(math.Ceil(s.cfg.LocalityDelay * float64(n)))
	s.rng = rand.New(rand.NewPCG(v.Seed(), 0x70757368626f78)) // "pushbox"
	s.pass.init(n)
	return nil
}

// Schedule is called once per instant with every opportunity: task-arrival
// mode (Algorithm 3) when tasks became waiting, else slot-change mode
// (Algorithm 2) on each machine whose slot freed or whose task left its
// input phase, in event order. Placements go into p in pick order.
func (s *Scheduler) Schedule(v sched.View, o sched.Opportunity, p *sched.Plan) {
	s.sampleRates(v)
	s.begin()
	if o.TaskArrival {
		s.taskArrival(v, p)
	} else {
		for _, m := range o.SlotChanged {
			s.fill(v, p, m)
		}
	}
}

// Offer serves heartbeats: slot-change mode for one slot of machine m.
func (s *Scheduler) Offer(v sched.View, m int, p *sched.Plan) {
	s.sampleRates(v)
	s.begin()
	if t := s.slotChange(v, m); !t.IsZero() {
		s.place(v, p, t, m)
	}
}
