package network

import "math"

// bundleTable finds the max-min bundle of a key: an open-addressing hash
// table with linear probing and backward-shift deletion. A bundle is
// created and deleted about once per flow, and on the full-size SWIM day
// Go's map spent a tenth of the run probing for them (its deletions leave
// tombstones that lengthen the probes); a table without tombstones keeps
// each probe short. It is never iterated, so its order cannot reach the
// results.
type bundleTable struct {
	slots []bundleSlot // a power of two long; b == nil: empty
	count int
}

type bundleSlot struct {
	hash uint64
	b    *bundle
}

const bundleTableMin = 256

// get returns the bundle of key k, or nil.
func (t *bundleTable) get(k *bundleKey) *bundle {
	if t.count == 0 {
		return nil
	}
	h := hashBundleKey(k)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.b == nil {
			return nil
		}
		if s.hash == h && s.b.key == *k {
			return s.b
		}
	}
}

// put adds b, whose key is not in the table.
func (t *bundleTable) put(b *bundle) {
	if 4*(t.count+1) > 3*len(t.slots) {
		t.grow()
	}
	t.insert(bundleSlot{hashBundleKey(&b.key), b})
	t.count++
}

func (t *bundleTable) insert(s bundleSlot) {
	mask := uint64(len(t.slots) - 1)
	i := s.hash & mask
	for t.slots[i].b != nil {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

func (t *bundleTable) grow() {
	old := t.slots
	t.slots = make([]bundleSlot, max(bundleTableMin, 2*len(old)))
	for _, s := range old {
		if s.b != nil {
			t.insert(s)
		}
	}
}

// remove deletes b, which is in the table, and moves back the entries
// after it that would otherwise no longer be found.
func (t *bundleTable) remove(b *bundle) {
	mask := uint64(len(t.slots) - 1)
	i := hashBundleKey(&b.key) & mask
	for t.slots[i].b != b {
		i = (i + 1) & mask
	}
	for j := (i + 1) & mask; t.slots[j].b != nil; j = (j + 1) & mask {
		// The entry at j may fill the hole at i if its home slot is not
		// in (i, j] (cyclically).
		if home := t.slots[j].hash & mask; (j-home)&mask >= (j-i)&mask {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = bundleSlot{}
	t.count--
}

// hashBundleKey mixes every field of k that == compares (a float zero of
// either sign hashes alike, as == has it).
func hashBundleKey(k *bundleKey) uint64 {
	h := uint64(uint32(k.src)) | uint64(uint32(k.dst))<<32
	h = mix64(h ^ uint64(uint32(k.class))<<1 ^ b2u(k.elephant)<<40 ^ b2u(k.fromRack)<<41)
	for _, x := range [...]float64{k.cap, k.explicit, k.wait} {
		h = mix64(h ^ math.Float64bits(x+0)) // x+0: -0 becomes +0
	}
	return h
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// mix64 is a 64-bit finalizer (splitmix64's).
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
