package o

import "fmt"

// Options are a component's settings: their methods run when it is set
// up, or when they are printed (badger's Options.String), or on every
// request (a compiled rule's apply): how often, the type's name does not
// say, loops included.
type Options struct{ fields []string }

// String prints every option.
func (opt Options) String() string {
	s := ""
	for _, f := range opt.fields {
		mark() // want `unknown: a method of the options type Options: set-up, how often it runs is not known`
		s += fmt.Sprint(f)
	}
	return s
}

// dialOpts are a client's settings.
type dialOpts struct{ addrs []string }

// apply is a method of a settings type too.
func (o *dialOpts) apply() {
	for range o.addrs {
		mark() // want `unknown: a method of the options type dialOpts: set-up, how often it runs is not known`
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
// starts (nats-server's): set-up by its name, which says nothing of how
// often it runs, loops included; its loop makes nothing it calls per
// item.
func (s *Server) initEventTracking() {
	for _, n := range s.names {
		mark() // want `unknown: set-up by its name, how often it runs is not known`
		subscribe(n)
	}
}

// subscribe is called only in initEventTracking's loop: neither cold by
// its caller's name nor per item by its loop.
func subscribe(n string) {
	_ = n
	mark() // want `unknown: no loop or per-item code of the package calls it`
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
		mark() // want `unknown: set-up by its name, how often it runs is not known`
		h.dial = func() {}
	}
}

// ruleConfig is one compiled rule: a settings type by its name, whose
// match runs for every item a caller filters.
type ruleConfig struct{ prefix string }

// match runs in Filter's loop: the loop outranks the type's name.
func (c *ruleConfig) match(s string) bool {
	mark() // want `per-item: called in a loop in Filter`
	return len(s) >= len(c.prefix)
}

// Filter keeps the items some rule matches.
func Filter(rules []*ruleConfig, items []string) (out []string) {
	for _, s := range items {
		for _, c := range rules {
			if c.match(s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// RuleConfigs are the rules of a relabelling step (VictoriaMetrics'
// ParsedConfigs): its Apply, of a settings type too and called by other
// packages, keeps the cold of its name; what it calls in its loop does
// not.
type RuleConfigs struct{ rules []*ruleConfig }

// Apply rewrites s by every rule.
func (rc *RuleConfigs) Apply(s string) string {
	mark() // want `unknown: a method of the options type RuleConfigs: set-up, how often it runs is not known`
	for _, c := range rc.rules {
		s = c.rewrite(s)
	}
	return s
}

// rewrite is called in the loop of another settings method: not cold
// by its type's name, and of unknown frequency, as Apply's own is.
func (c *ruleConfig) rewrite(s string) string {
	mark() // want `unknown: no loop or per-item code of the package calls it`
	return c.prefix + s
}

// check validates one rule: called in a loop of init, and in a loop on
// an error path, neither of which is evidence against its type's name.
func (c *ruleConfig) check() bool {
	mark() // want `unknown: a method of the options type ruleConfig: set-up, how often it runs is not known`
	return c.prefix != ""
}

var defaultRules = []*ruleConfig{{"a"}, {"b"}}

func init() {
	for _, c := range defaultRules {
		c.check()
	}
}

// Validate reports the first bad rule, listing all rules when one is.
func Validate(rules []*ruleConfig) error {
	for _, c := range rules {
		if c.prefix == "" {
			for _, d := range rules {
				d.check()
			}
			return fmt.Errorf("empty prefix")
		}
	}
	return nil
}
