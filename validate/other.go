//go:build !linux

// Package validate compares netsched's network model with real TCP in
// Linux network namespaces; elsewhere it only reports that it cannot.
package validate

import (
	"errors"

	"github.com/netsched/netsched/scenario"
)

// Run reports that validation needs Linux.
func Run(sc *scenario.Scenario, opt Options) (*Report, error) {
	return nil, errors.New("validation emulates the network with Linux network namespaces; it runs on Linux only")
}
