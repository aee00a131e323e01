package b

import "regexp"

type Matcher struct {
	pattern string
	cfg     struct{ sep string }
}

// Match compiles the receiver's pattern per call.
func (m *Matcher) Match(s string) bool {
	return regexp.MustCompile(m.pattern).MatchString(s) // want `^regexp\.MustCompile compiles the regular expression from the receiver's fields on every call of \(\*Matcher\)\.Match: build it once, in a field set when the receiver is created \(or with sync\.OnceValue\), to save the work and its allocations per call; no automatic fix: where the receiver is created is for its type to decide \[per-item: called in a loop in All\]$`
}

// All calls Match in a loop.
func All(m *Matcher, xs []string) int {
	n := 0
	for _, x := range xs {
		if m.Match(x) {
			n++
		}
	}
	return n
}

// Split uses a nested receiver field and a constant.
func (m *Matcher) Split(s string) []string {
	return regexp.MustCompile(m.cfg.sep+`+`).Split(s, -1) // want `regexp\.MustCompile compiles the regular expression from the receiver's fields`
}

func (m *Matcher) splitAll(xs []string) {
	for _, x := range xs {
		m.Split(x)
	}
}
