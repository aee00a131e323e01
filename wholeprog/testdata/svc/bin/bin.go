// Package bin is the only Decoder implementation.
package bin

import (
	"errors"

	"example.com/svc/codec"
)

type Decoder struct{ n int }

func New() *Decoder { return &Decoder{} }

func (d *Decoder) Decode(buf []byte) (int, error) {
	if len(buf) == 0 {
		return 0, errors.New("empty")
	}
	d.n += int(buf[0])
	return len(buf), nil
}

// FNV is one Hasher.
type FNV struct{}

func (FNV) Hash(buf []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range buf {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

// Raw is a Codec registered by the plugin package.
type Raw struct{}

func (Raw) Encode(buf []byte) int { return len(buf) }

func init() { codec.Register("raw", Raw{}) }
