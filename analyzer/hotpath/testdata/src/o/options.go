package o

import "fmt"

// Options are a component's settings: their methods run when it is set
// up, or when they are printed, loops included (badger's Options.String).
type Options struct{ fields []string }

// String prints every option.
func (opt Options) String() string {
	s := ""
	for _, f := range opt.fields {
		mark() // want `cold: runs once: set-up, a method of the options type Options`
		s += fmt.Sprint(f)
	}
	return s
}

// dialOpts are a client's settings.
type dialOpts struct{ addrs []string }

// apply is a method of a settings type too.
func (o *dialOpts) apply() {
	for range o.addrs {
		mark() // want `cold: runs once: set-up, a method of the options type dialOpts`
	}
}

// Get reads one option by name: per-item by its name, whatever its type.
func (opt Options) Get(i int) string {
	for range opt.fields {
		mark() // want `hot-loop: inside a loop`
	}
	return opt.fields[i]
}

// Server is a component with set-up methods.
type Server struct{ names []string }

// Start sets the server up.
func (s *Server) Start() { s.initEventTracking() }

// initEventTracking registers one subscription per name when the server
// starts (nats-server's): cold by its name, loops included.
func (s *Server) initEventTracking() {
	for range s.names {
		mark() // want `cold: runs once: set-up, by its name`
	}
}

// initItem is named like set-up work but runs in a loop of Start's
// callers in this package: its name is not evidence then.
func initItem(n string) {
	_ = n
	mark() // want `per-item: called in a loop in \(\*Server\).Fill`
}

// Fill initialises every item.
func (s *Server) Fill() {
	for _, n := range s.names {
		initItem(n)
	}
}

// hooks are a client's callbacks.
type hooks struct{ dial func() }

// setDefaults fills in the hooks not given (go-redis's): set-up by its
// name.
func (h *hooks) setDefaults() {
	if h.dial == nil {
		mark() // want `cold: runs once: set-up, by its name`
		h.dial = func() {}
	}
}
