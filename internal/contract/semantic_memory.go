package contract

import (
	"slices"
	"strconv"
)

// memory checks what the layers determine of the memory section: the
// largest activations are distinct, largest first, at most five, no more
// than the tensors sized, and each is an output of its producer with the
// same shape.
func (c *checker) memory(p string, b *Backend) {
	m := b.Memory
	if m == nil {
		return
	}
	q := p + "/memory"
	if len(m.LargestActivations) > 5 || len(m.LargestActivations) > m.ActivationTensors {
		c.add(q+"/largest_activations", "%d largest activations: at most 5 and at most activation_tensors (%d)", len(m.LargestActivations), m.ActivationTensors)
	}
	if m.WeightLayers > len(b.Layers) {
		c.add(q+"/weight_layers", "weight_layers %d is more than the %d layers", m.WeightLayers, len(b.Layers))
	}
	names := map[string]bool{}
	for i := range m.LargestActivations {
		a := &m.LargestActivations[i]
		qa := q + "/largest_activations/" + strconv.Itoa(i)
		if names[a.Name] {
			c.add(qa+"/name", "tensor %q is listed twice", a.Name)
		}
		names[a.Name] = true
		if i > 0 && a.Bytes > m.LargestActivations[i-1].Bytes {
			c.add(qa+"/bytes", "largest activations must be largest first: %v after %v", a.Bytes, m.LargestActivations[i-1].Bytes)
		}
		if a.Producer < -1 || a.Producer >= len(b.Layers) {
			c.add(qa+"/producer", "producer %d out of range [-1, %d)", a.Producer, len(b.Layers))
			continue
		}
		if a.Producer < 0 {
			continue
		}
		found := false
		for _, t := range b.Layers[a.Producer].Outputs {
			if t.Name == a.Name && slices.Equal(t.Dimensions, a.Dimensions) {
				found = true
				break
			}
		}
		if !found {
			c.add(qa+"/producer", "layer %d has no output %q of dimensions %v", a.Producer, a.Name, a.Dimensions)
		}
	}
}
