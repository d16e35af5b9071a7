//go:build linux

package validate

import (
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// inNS runs f on an OS thread switched into the network namespace name
// (created with `ip netns add`), then switches the thread back. Sockets
// belong to the namespace they are created in, so a connection or listener
// made in f keeps working from any goroutine afterwards.
func inNS(name string, f func() error) error {
	runtime.LockOSThread()
	orig, err := os.Open("/proc/thread-self/ns/net")
	if err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("network namespace of this thread: %w", err)
	}
	defer orig.Close()
	target, err := os.Open("/run/netns/" + name)
	if err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("network namespace %s: %w", name, err)
	}
	defer target.Close()
	if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("entering network namespace %s: %w", name, err)
	}
	ferr := f()
	if err := unix.Setns(int(orig.Fd()), unix.CLONE_NEWNET); err != nil {
		// The thread stays in the wrong namespace: keep it locked so the
		// runtime retires it instead of reusing it.
		return fmt.Errorf("leaving network namespace %s: %w", name, err)
	}
	runtime.UnlockOSThread()
	return ferr
}
