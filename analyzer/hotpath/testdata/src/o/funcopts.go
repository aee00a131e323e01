package o

import (
	"errors"
	"regexp"
	"strings"
)

// ServerConfig is a server's settings; ServerOption is the functional
// option idiom over them: a named function type.
type ServerConfig struct {
	names []string
	re    *regexp.Regexp
}

type ServerOption func(*ServerConfig)

// WithNames makes an option: it runs when the server is configured, and so
// does the literal it returns, loops included.
func WithNames(names ...string) ServerOption {
	for range names {
		mark() // want `cold: runs once: set-up, makes an option of ServerConfig`
	}
	return func(c *ServerConfig) {
		for _, n := range names {
			mark() // want `cold: runs once: set-up, applies an option to ServerConfig`
			c.names = append(c.names, strings.ToLower(n))
		}
	}
}

// Matching returns the option as an unnamed function type that may fail.
func Matching(expr string) func(*ServerConfig) error {
	return func(c *ServerConfig) error {
		re, err := regexp.Compile(expr)
		mark() // want `cold: runs once: set-up, applies an option to ServerConfig`
		c.re = re
		return err
	}
}

// dialOptions are a client's settings, set through an interface option
// (grpc's DialOption shape).
type dialOptions struct{ retries int }

type DialOption interface{ apply(*dialOptions) }

type retryOption int

func (r retryOption) apply(o *dialOptions) { o.retries = int(r) }

// WithRetries makes an interface option of dialOptions.
func WithRetries(n int) DialOption {
	mark() // want `cold: runs once: set-up, makes an option of dialOptions`
	return retryOption(n)
}

// NewServer takes options inline: the literal applies settings once.
func NewServer(opts ...ServerOption) *ServerConfig {
	c := &ServerConfig{}
	for _, o := range opts {
		o(c)
	}
	return c
}

func build() *ServerConfig {
	return NewServer(func(c *ServerConfig) {
		mark() // want `cold: runs once: set-up, applies an option to ServerConfig`
	})
}

// Op is one request, not settings: an option of it is made per call
// (etcd's OpOption), so neither its maker nor its literal is set-up.
type Op struct{ prefix bool }

type OpOption func(*Op)

func WithPrefix() OpOption {
	return func(op *Op) {
		mark() // want `unknown: in a function literal run elsewhere: how often is not known`
		op.prefix = true
	}
}

// ValidateConfig checks settings and reports an error: it takes settings
// but is not an option, and returns more than an error.
func ValidateConfig(c *ServerConfig) (int, error) {
	mark() // want `cold: runs once: set-up, by its name`
	if len(c.names) == 0 {
		return 0, errors.New("no names")
	}
	return len(c.names), nil
}
