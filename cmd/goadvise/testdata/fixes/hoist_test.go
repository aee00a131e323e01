package fixes

import (
	"bytes"
	"testing"
)

// TestFrames checks each frame's bytes: a key shorter than the one before
// it must leave no trace of the longer one.
func TestFrames(t *testing.T) {
	var b bytes.Buffer
	e := &Encoder{w: &b}
	e.Frames([][]byte{[]byte("a longer key"), []byte("k")})
	want := make([]byte, 256)
	want[0] = 12
	copy(want[1:], "a longer key")
	want[128] = 1
	want[129] = 'k'
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("Frames wrote %q, want %q", b.Bytes(), want)
	}
}
