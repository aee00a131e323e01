// Package plugin registers a second Codec at init, plugin-style.
package plugin

import "example.com/svc/codec"

type Upper struct{}

func (Upper) Encode(buf []byte) int { return 2 * len(buf) }

func init() { codec.Register("upper", Upper{}) }
