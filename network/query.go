package network

// Read-only queries for a caller that computes explicit rates itself from
// the network's own view of its flows (the task engine's coflow policies):
// which links a flow crosses and what it is pinned to. Remaining and Links
// (in API) give the bytes left and the capacities.

// Querier is the read-only view of routes and pinned rates; *Network
// implements it.
type Querier interface {
	// Route appends to dst the links flow id crosses now, as indices into
	// Links(), the source NIC's uplink first (a
	// FlowSpec.FromRack flow has none); an unknown id appends nothing. On a hybrid
	// network an elephant's route changes with the circuits.
	Route(id FlowID, dst []int) []int
	// Pinned is the explicit rate flow id is pinned to (SetRate); ok is
	// false for a max-min shared or unknown flow.
	Pinned(id FlowID) (rate float64, ok bool)
}

var _ Querier = (*Network)(nil)

// Route implements Querier.
func (n *Network) Route(id FlowID, dst []int) []int {
	if fl := n.flow(id); fl != nil {
		for _, l := range fl.b.links() {
			dst = append(dst, int(l))
		}
	}
	return dst
}

// Pinned implements Querier.
func (n *Network) Pinned(id FlowID) (float64, bool) {
	fl := n.flow(id)
	if fl == nil || fl.key.explicit < 0 {
		return 0, false
	}
	return fl.key.explicit, true
}
