// Package engine is internal: only this module imports it, and only the
// module's command calls Run, with a Fast.
package engine

type Codec interface {
	Enc(b []byte) int
}

type Fast struct{}

func (Fast) Enc(b []byte) int { return len(b) }

// Run calls the codec in a loop: reported.
func Run(c Codec, items [][]byte) int {
	n := 0
	for _, it := range items {
		n += c.Enc(it)
	}
	return n
}

// Pipe feeds items to a Codec. lib.NewFeeder hands it to any importer as
// an interface, so its Feed can receive their Codecs: not reported.
type Pipe struct{}

func (*Pipe) Feed(c Codec, items [][]byte) int {
	n := 0
	for _, it := range items {
		n += c.Enc(it)
	}
	return n
}
