// Package lib is a library other programs import: its Store is supplied
// by its users through an option.
package lib

import "example.com/open/internal/engine"

// Feeder is what NewFeeder returns: any importer can call Feed with its
// own Codec.
type Feeder interface {
	Feed(c engine.Codec, items [][]byte) int
}

// NewFeeder returns the engine's Pipe.
func NewFeeder() Feeder { return &engine.Pipe{} }

// Store is what users of the library supply.
type Store interface {
	Get(key string) int
}

// MemStore is the one Store the module's own command uses.
type MemStore struct{ n int }

func (m *MemStore) Get(key string) int { return m.n + len(key) }

// Client sums keys from its Store.
type Client struct{ store Store }

// An Option configures a Client.
type Option func(*Client)

// WithStore sets the Store: any importer can pass its own.
func WithStore(s Store) Option { return func(c *Client) { c.store = s } }

// New returns a Client configured by opts.
func New(opts ...Option) *Client {
	c := &Client{}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Sum calls the user's Store in a loop: reported, the module's command
// passing one Store; not with OpenWorld (other programs pass others).
func (c *Client) Sum(keys []string) int {
	n := 0
	for _, k := range keys {
		n += c.store.Get(k)
	}
	return n
}

// counter is unexported: only this package names it.
type counter interface {
	Count(key string) int
}

// Bytes is the only counter.
type Bytes struct{}

func (Bytes) Count(key string) int { return len(key) }

// Count is exported, but it always passes a Bytes to count: whoever calls
// it, the receiver in count is a Bytes.
func Count(keys []string) int { return count(Bytes{}, keys) }

// count is unexported and only Count calls it: reported.
func count(c counter, keys []string) int {
	n := 0
	for _, k := range keys {
		n += c.Count(k)
	}
	return n
}
