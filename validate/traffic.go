//go:build linux

package validate

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Flow is one transfer to replay: Bytes from machine Src to Dst, starting
// Start seconds after the replay begins, in priority class Class.
type Flow struct {
	ID       int
	Src, Dst int
	Start    float64
	Bytes    float64
	Class    int
}

// Measured is a flow's completion on real TCP: from the sender's dial to
// the receiver's last byte, in seconds since the replay began.
type Measured struct {
	ID            int
	Start, Finish float64
}

const port = 5201

// Replay runs the flows as TCP transfers in the emulated network and
// returns when every flow has been received, in flow order. A flow's
// sender dials at its start time; its receiver stamps the end of the data.
func (e *Emulator) Replay(flows []Flow) ([]Measured, error) {
	for _, f := range flows {
		if f.Src == f.Dst || f.Src < 0 || f.Dst < 0 || f.Src >= len(e.machines) || f.Dst >= len(e.machines) {
			return nil, fmt.Errorf("flow %d: %d -> %d is not a transfer between two machines of the emulation", f.ID, f.Src, f.Dst)
		}
		if f.Class < 0 || f.Class >= e.topo.Classes || !(f.Bytes >= 1) || f.Start < 0 {
			return nil, fmt.Errorf("flow %d: class %d, %g bytes, start %g s: out of range", f.ID, f.Class, f.Bytes, f.Start)
		}
	}
	index := map[int]int{}
	for i, f := range flows {
		if _, dup := index[f.ID]; dup {
			return nil, fmt.Errorf("flow id %d appears twice", f.ID)
		}
		index[f.ID] = i
	}
	out := make([]Measured, len(flows))
	var mu sync.Mutex
	var firstErr error
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}

	// One listener per receiving machine, made inside its namespace.
	receivers := map[int]bool{}
	for _, f := range flows {
		receivers[f.Dst] = true
	}
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	var received sync.WaitGroup
	received.Add(len(flows))
	var t0 time.Time
	ready := make(chan struct{})
	for m := range receivers {
		var l net.Listener
		err := inNS(e.machines[m], func() (err error) {
			l, err = net.Listen("tcp4", net.JoinHostPort(e.addrs[m], strconv.Itoa(port)))
			return err
		})
		if err != nil {
			return nil, err
		}
		listeners = append(listeners, l)
		go func() {
			<-ready
			for {
				c, err := l.Accept()
				if err != nil {
					return // closed
				}
				go func() {
					defer c.Close()
					var hdr [8]byte
					if _, err := io.ReadFull(c, hdr[:]); err != nil {
						fail(fmt.Errorf("receiving on machine %d: %w", m, err))
						received.Done()
						return
					}
					id := int(binary.BigEndian.Uint64(hdr[:]))
					_, err := io.Copy(io.Discard, c)
					end := time.Since(t0).Seconds()
					i, ok := index[id]
					if err != nil || !ok {
						fail(fmt.Errorf("receiving flow %d: %v", id, err))
					} else {
						mu.Lock()
						out[i].ID, out[i].Finish = id, end
						mu.Unlock()
					}
					received.Done()
				}()
			}
		}()
	}

	order := make([]int, len(flows))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return flows[order[a]].Start < flows[order[b]].Start })
	t0 = time.Now()
	close(ready)
	var sent sync.WaitGroup
	for _, i := range order {
		f := flows[i]
		time.Sleep(time.Until(t0.Add(time.Duration(f.Start * float64(time.Second)))))
		start := time.Since(t0).Seconds()
		mu.Lock()
		out[i].Start = start
		mu.Unlock()
		var c net.Conn
		err := inNS(e.machines[f.Src], func() (err error) {
			c, err = net.Dial("tcp4", net.JoinHostPort(e.addrs[f.Dst], strconv.Itoa(port)))
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("flow %d: %w", f.ID, err)
		}
		if err := setTOS(c, f.Class<<2); err != nil {
			c.Close()
			return nil, fmt.Errorf("flow %d: %w", f.ID, err)
		}
		sent.Add(1)
		go func() {
			defer sent.Done()
			defer c.Close()
			if err := send(c, f); err != nil {
				fail(fmt.Errorf("flow %d: %w", f.ID, err))
			}
		}()
	}
	sent.Wait()
	received.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

var zeros = make([]byte, 256<<10)

// send writes the flow's id and then its bytes.
func send(c net.Conn, f Flow) error {
	var hdr [8]byte
	binary.BigEndian.PutUint64(hdr[:], uint64(f.ID))
	if _, err := c.Write(hdr[:]); err != nil {
		return err
	}
	left := int64(f.Bytes)
	for left > 0 {
		n := min(left, int64(len(zeros)))
		if _, err := c.Write(zeros[:n]); err != nil {
			return err
		}
		left -= n
	}
	return c.(*net.TCPConn).CloseWrite()
}

// setTOS marks the connection's packets with a DSCP for the prio bands.
func setTOS(c net.Conn, tos int) error {
	raw, err := c.(*net.TCPConn).SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := raw.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_IP, syscall.IP_TOS, tos)
	}); err != nil {
		return err
	}
	return serr
}
