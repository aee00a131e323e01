package c

import (
	"encoding/json"
	"regexp"
	"text/template"
)

// Rule is decoded from JSON: its pattern is input, not a fixed setting.
type Rule struct {
	Pattern string `json:"pattern"`
	Text    string `json:"text"`
}

// Load decodes a rule and compiles its pattern: there is nothing to cache
// between calls, each call has a new pattern.
func (r *Rule) Load(data []byte) (*regexp.Regexp, error) {
	if err := json.Unmarshal(data, r); err != nil {
		return nil, err
	}
	return regexp.Compile(r.Pattern)
}

// Validate's receiver is a copy its caller passes, like a parameter.
func (r Rule) Validate() error {
	_, err := regexp.Compile(r.Pattern)
	return err
}

// Render parses the decoded template text.
func (r *Rule) Render() error {
	_, err := template.New("rule").Parse(r.Text)
	return err
}

// LoadAll runs the methods above per item.
func LoadAll(rules []*Rule, data [][]byte) {
	for i, r := range rules {
		r.Load(data[i])
		r.Validate()
		r.Render()
	}
}

// Filter's expression is replaced by Reset, outside any constructor.
type Filter struct {
	expr string
}

func NewFilter(e string) *Filter { return &Filter{expr: e} }

func (f *Filter) Reset(e string) { f.expr = e }

func (f *Filter) Match(s string) bool {
	return regexp.MustCompile(f.expr).MatchString(s)
}

// Swap replaces the whole value behind the pointer.
type Swap struct {
	expr string
}

func (s *Swap) Set(e string) { *s = Swap{expr: e} }

func (s *Swap) Match(x string) bool {
	return regexp.MustCompile(s.expr).MatchString(x)
}

// Router's prefix is set once, by its constructor: the compiled pattern
// belongs in a field.
type Router struct {
	prefix string
}

func NewRouter(p string) *Router {
	r := &Router{}
	r.prefix = p
	return r
}

func (r *Router) Route(path string) bool {
	return regexp.MustCompile("^" + r.prefix).MatchString(path) // want `regexp\.MustCompile compiles the regular expression from the receiver's fields on every call of \(\*Router\)\.Route`
}

// All calls the matchers per item.
func All(f *Filter, s *Swap, r *Router, xs []string) {
	for _, x := range xs {
		f.Match(x)
		s.Match(x)
		r.Route(x)
	}
}
