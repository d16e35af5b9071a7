package scenario

import (
	"errors"
	"sync"
)

// Scheduler choices are checked when a scenario loads, so that a bad
// parameter is reported with its file and line rather than when the run
// starts. The schedulers live in packages that build on this one, so the
// check is installed by the package that registers them (sched/all).

// SchedulerCheck checks a scheduler choice. A failure may be a
// *SchedulerFieldError to point at one field of `scheduler:`.
type SchedulerCheck func(SchedulerSpec) error

// SchedulerFieldError is a problem with one field of the `scheduler:`
// mapping: Field is relative to it ("name", "params.m", "network", ...).
type SchedulerFieldError interface {
	error
	SchedulerField() string
}

var (
	checkMu      sync.Mutex
	schedulerChk SchedulerCheck
)

// SetSchedulerCheck installs the check every later load applies.
func SetSchedulerCheck(c SchedulerCheck) {
	checkMu.Lock()
	defer checkMu.Unlock()
	schedulerChk = c
}

func checkScheduler(spec SchedulerSpec, src *source) error {
	checkMu.Lock()
	c := schedulerChk
	checkMu.Unlock()
	if c == nil {
		return nil
	}
	err := c(spec)
	if err == nil {
		return nil
	}
	path := "scheduler"
	var fe SchedulerFieldError
	if errors.As(err, &fe) && fe.SchedulerField() != "" {
		path += "." + fe.SchedulerField()
	}
	return src.at(path, "%v", err)
}
