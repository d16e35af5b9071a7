//go:build linux

package validate

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// Topology is the network to emulate: machines in racks, each with a NIC,
// and, for a two-tier network, each rack with an uplink to a core and a
// downlink from it. Rates are bytes/s.
type Topology struct {
	RackOf   []int     // per machine
	NICUp    []float64 // per machine
	NICDown  []float64
	RackUp   []float64 // per rack; nil for a non-blocking network (NICs only)
	RackDown []float64
	Classes  int // priority classes to honour (1 to 3); flows of class c get DSCP c
}

// MaxClasses is the number of strict priority classes the emulation maps
// to tc prio bands.
const MaxClasses = 3

// Emulator is a topology built from network namespaces: one per machine,
// one router per rack and one core router (two-tier), joined by veth pairs
// whose egress is shaped by tc htb at the link's rate, with one htb child
// per priority class so that DSCP-marked flows get (nearly) strict priority
// as netsched's classes do.
type Emulator struct {
	topo     Topology
	prefix   string
	machines []string // namespace names
	addrs    []string // each machine's IP address
	made     []string // namespaces to remove
}

// Build creates the namespaces, links, addresses, routes and shapers.
// Names carry the process id, so concurrent emulations do not collide; Close
// removes everything, and a failed Build removes what it made.
func Build(t Topology) (_ *Emulator, err error) {
	n := len(t.RackOf)
	switch {
	case n < 2 || n > 250:
		return nil, fmt.Errorf("emulation: %d machines; expected 2 to 250", n)
	case len(t.NICUp) != n || len(t.NICDown) != n:
		return nil, errors.New("emulation: one NIC rate per machine expected")
	case t.Classes < 1 || t.Classes > MaxClasses:
		return nil, fmt.Errorf("emulation: %d priority classes; expected 1 to %d", t.Classes, MaxClasses)
	}
	racks := 0
	for _, r := range t.RackOf {
		racks = max(racks, r+1)
	}
	twoTier := t.RackUp != nil
	if twoTier && (len(t.RackUp) != racks || len(t.RackDown) != racks) {
		return nil, errors.New("emulation: one rack uplink and downlink rate per rack expected")
	}
	e := &Emulator{topo: t, prefix: fmt.Sprintf("ns%d", os.Getpid())}
	defer func() {
		if err != nil {
			e.Close()
		}
	}()
	router := func(r int) string {
		if !twoTier {
			return e.prefix + "sw" // one switch: only NICs constrain
		}
		return fmt.Sprintf("%sr%d", e.prefix, r)
	}
	routers := map[string]bool{}
	for i := range n {
		e.machines = append(e.machines, fmt.Sprintf("%sm%d", e.prefix, i))
		routers[router(t.RackOf[i])] = true
	}
	names := append([]string(nil), e.machines...)
	for r := range racks {
		if name := router(r); routers[name] {
			names = append(names, name)
			delete(routers, name)
		}
	}
	core := e.prefix + "core"
	if twoTier {
		names = append(names, core)
	}
	for _, ns := range names {
		if err := run("ip", "netns", "add", ns); err != nil {
			return nil, err
		}
		e.made = append(e.made, ns)
		if err := run("ip", "-n", ns, "link", "set", "lo", "up"); err != nil {
			return nil, err
		}
	}
	// Machine i: veth m<i>a (machine) -- m<i>b (router), subnet 10.64.x.y/30
	// with the router at .1 and the machine at .2.
	for i, ns := range e.machines {
		rt := router(t.RackOf[i])
		mine, theirs := fmt.Sprintf("m%da", i), fmt.Sprintf("m%db", i)
		a, b := p2p(10<<24|64<<16, i)
		e.addrs = append(e.addrs, b)
		if err := link(ns, mine, b, rt, theirs, a); err != nil {
			return nil, err
		}
		if err := run("ip", "-n", ns, "route", "add", "default", "via", a); err != nil {
			return nil, err
		}
		if err := e.shape(ns, mine, t.NICUp[i]); err != nil {
			return nil, err
		}
		if err := e.shape(rt, theirs, t.NICDown[i]); err != nil {
			return nil, err
		}
	}
	for _, ns := range names[len(e.machines):] {
		if err := run("ip", "netns", "exec", ns, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1"); err != nil {
			return nil, err
		}
	}
	if !twoTier {
		return e, nil
	}
	// Rack r: veth r<r>a (rack router) -- r<r>b (core), 10.32.x.y/30.
	for r := range racks {
		rt := router(r)
		up, down := fmt.Sprintf("r%da", r), fmt.Sprintf("r%db", r)
		a, b := p2p(10<<24|32<<16, r)
		if err := link(rt, up, a, core, down, b); err != nil {
			return nil, err
		}
		if err := run("ip", "-n", rt, "route", "add", "default", "via", b); err != nil {
			return nil, err
		}
		if err := e.shape(rt, up, t.RackUp[r]); err != nil {
			return nil, err
		}
		if err := e.shape(core, down, t.RackDown[r]); err != nil {
			return nil, err
		}
		for i, mr := range t.RackOf {
			if mr == r {
				if err := run("ip", "-n", core, "route", "add", e.addrs[i]+"/32", "via", a); err != nil {
					return nil, err
				}
			}
		}
	}
	return e, nil
}

// Close removes every namespace the emulation made (their links go with
// them). It is safe to call twice.
func (e *Emulator) Close() error {
	var first error
	for _, ns := range e.made {
		if err := run("ip", "netns", "del", ns); err != nil && first == nil {
			first = err
		}
	}
	e.made = nil
	return first
}

// p2p returns the two addresses of the i-th /30 from base.
func p2p(base uint32, i int) (a, b string) {
	net := base + uint32(4*i)
	ip := func(x uint32) string { return fmt.Sprintf("%d.%d.%d.%d", x>>24, x>>16&255, x>>8&255, x&255) }
	return ip(net + 1), ip(net + 2)
}

// link joins namespace nsA (interface ifA, address addrA) and nsB.
func link(nsA, ifA, addrA, nsB, ifB, addrB string) error {
	if err := run("ip", "link", "add", ifA, "netns", nsA, "type", "veth", "peer", "name", ifB, "netns", nsB); err != nil {
		return err
	}
	for _, s := range [][3]string{{nsA, ifA, addrA}, {nsB, ifB, addrB}} {
		if err := run("ip", "-n", s[0], "addr", "add", s[2]+"/30", "dev", s[1]); err != nil {
			return err
		}
		if err := run("ip", "-n", s[0], "link", "set", s[1], "up"); err != nil {
			return err
		}
	}
	return nil
}

// shape limits the egress of dev in ns to rate bytes/s with tc htb: a
// parent class at the rate and one child per priority class, each
// guaranteed next to nothing and allowed the whole rate, with htb priority
// c; htb lends spare rate to the lowest priority number first, so class 0
// takes what it can use and class 1 gets the rest (strict priority up to
// the children's 1 kbit/s guarantees). Packets go to class c by their DSCP.
func (e *Emulator) shape(ns, dev string, rate float64) error {
	bits := strconv.FormatInt(int64(rate*8), 10) + "bit"
	tc := func(args ...string) error { return run("ip", append([]string{"netns", "exec", ns, "tc"}, args...)...) }
	if err := tc("qdisc", "add", "dev", dev, "root", "handle", "1:", "htb", "default", "11", "r2q", "1000"); err != nil {
		return err
	}
	if err := tc("class", "add", "dev", dev, "parent", "1:", "classid", "1:1", "htb", "rate", bits, "ceil", bits); err != nil {
		return err
	}
	for c := range MaxClasses {
		id := fmt.Sprintf("1:%d", 11+c)
		if err := tc("class", "add", "dev", dev, "parent", "1:1", "classid", id, "htb", "rate", "1kbit", "ceil", bits, "prio", strconv.Itoa(c)); err != nil {
			return err
		}
		tos := "0x" + strconv.FormatInt(int64(c<<2), 16)
		if err := tc("filter", "add", "dev", dev, "parent", "1:", "protocol", "ip", "prio", "1", "u32",
			"match", "ip", "tos", tos, "0xfc", "flowid", id); err != nil {
			return err
		}
	}
	return nil
}

// run executes a command, returning its output in the error on failure.
func run(name string, args ...string) error {
	var out bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return nil
}
