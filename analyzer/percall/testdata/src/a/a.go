package a

import (
	"html/template"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Route runs per item; it compiles a constant pattern on every call.
func Route(path string) bool {
	return regexp.MustCompile(`^/v1/(\w+)$`).MatchString(path) // want `^regexp\.MustCompile with constant arguments compiles the regular expression on every call of Route: move it to a package-level variable \(or sync\.OnceValue for lazy initialization\), so it is built once instead of once per call \[per-item: called in a loop in Batch\]$`
}

const idPattern = `[0-9]+`

// ParseIDs compiles in a loop; routeRe... names are taken, so the fix
// numbers its variable.
func ParseIDs(lines []string) int {
	n := 0
	parseIDsRe := 1
	for _, l := range lines {
		if regexp.MustCompile(idPattern).MatchString(l) { // want `regexp\.MustCompile with constant arguments .* \[hot-loop: inside a loop\]$`
			n += parseIDsRe
		}
	}
	return n
}

var setup = regexp.MustCompile(`x`) // package level: built once, not reported

// setupOnce is cold: only init calls it.
func init() { _ = setupOnce() }

func setupOnce() *regexp.Regexp {
	return regexp.MustCompile(`^a+$`)
}

// Local constants cannot be moved to package level: reported, no fix.
func Handle(s string) bool {
	const p = `^b+$`
	return regexp.MustCompile(p).MatchString(s) // want `regexp\.MustCompile with constant arguments .*\[per-item: function Handle runs per item\]$`
}

// An invalid pattern would panic at program start once hoisted: no fix.
func HandleBad(s string) bool {
	return regexp.MustCompile(`(`).MatchString(s) // want `regexp\.MustCompile with constant arguments .*; no automatic fix: the arguments are invalid, and hoisted the call would panic at start-up instead of when it runs \[`
}

// A dynamic pattern is not per-call waste.
func HandleDyn(pat, s string) bool {
	return regexp.MustCompile(pat).MatchString(s)
}

// ProcessZone loads a constant time zone per call.
func ProcessZone(t time.Time) time.Time {
	loc, err := time.LoadLocation("Europe/Paris") // want `^time\.LoadLocation with constant arguments loads and parses the time zone file on every call of ProcessZone: move it to a package-level variable \(or sync\.OnceValues for lazy initialization\).*; no automatic fix: the error it returns must still be handled where it was`
	if err != nil {
		return t
	}
	return t.In(loc)
}

// Escape builds a constant replacer per call.
func Escape(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(s) // want `strings\.NewReplacer with constant arguments builds the replacer`
}

// Render parses a constant template per call.
func Render(w *strings.Builder, v any) error {
	t := template.Must(template.New("page").Parse(`<p>{{.}}</p>`)) // want `^template parsed from constant text on every call of Render: parse it once into a package-level variable`
	return t.Execute(w, v)
}

// Lookup builds a constant map per call but only reads it.
func Lookup(k string) int {
	m := map[string]int{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8} // want `^map literal of 8 constant entries is built on every call of Lookup although it is only read`
	if len(m) == 0 {
		return 0
	}
	return m[k]
}

// Get writes into its map: the map is per call on purpose.
func Get(k string) int {
	m := map[string]int{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8}
	m[k]++
	return m[k]
}

// Set returns its map: not reported.
func Set() map[string]int {
	m := map[string]int{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8}
	return m
}

// Put has a small map: not reported.
func Put(k string) int {
	return map[string]int{"a": 1, "b": 2}[k]
}

// Batch makes Route, Escape and Render per-item work.
func Batch(xs []string) {
	for _, x := range xs {
		Route(x)
		Escape(x)
		Render(nil, x)
	}
}

var (
	cachedRe *regexp.Regexp
	onceRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^c+$`) })
)

type Cache struct {
	pattern string
	re      *regexp.Regexp
	once    sync.Once
}

// HandleCached compiles lazily into package-level and receiver caches:
// once, not per call.
func (c *Cache) HandleCached(s string) bool {
	if cachedRe == nil {
		cachedRe = regexp.MustCompile(`^c+$`)
	}
	if c.re == nil {
		c.re = regexp.MustCompile(c.pattern)
	}
	c.once.Do(func() {
		c.re = regexp.MustCompile(`^d+$`)
	})
	return cachedRe.MatchString(s) && c.re.MatchString(s) && onceRe().MatchString(s)
}

// HandlePut compiles into a local: the fix moves the declaration, with
// its comments, to package level and keeps the local's name.
func HandlePut(id string) bool {
	// idRe matches numeric IDs.
	idRe := regexp.MustCompile(`^[0-9]+$`) // want `regexp\.MustCompile with constant arguments .*\[per-item: function HandlePut runs per item\]$`
	if !idRe.MatchString(id) {
		return false
	}
	return len(idRe.FindString(id)) > 0
}

// HandleGet's local has a short name: the package-level variable is named
// after the function and every use is renamed, also in a closure.
func HandleGet(ids []string) int {
	// re matches lower-case IDs.
	var re = regexp.MustCompile(`^[a-z]+$`) // want `regexp\.MustCompile with constant arguments`
	n := 0
	count := func(s string) {
		if re.MatchString(s) {
			n++
		}
	}
	for _, id := range ids {
		count(id)
	}
	return n
}

// HandleQuote's local shadows a package-level name: the new variable is
// named after the function.
func HandleQuote(s string) string {
	cachedRe := strings.NewReplacer(`'`, `\'`) // want `strings\.NewReplacer with constant arguments`
	return cachedRe.Replace(s)
}

// HandleSwap reassigns its local: the local stays, set from the new
// package-level variables.
func HandleSwap(s string, alt bool) bool {
	re := regexp.MustCompile(`^x+$`) // want `regexp\.MustCompile with constant arguments`
	if alt {
		re = regexp.MustCompile(`^y+$`) // want `regexp\.MustCompile with constant arguments`
	}
	return re.MatchString(s)
}

// HandleEscape declares two replacers in one statement: each call is
// replaced where it is.
func HandleEscape(s string) string {
	a, b := strings.NewReplacer("a", "b"), strings.NewReplacer("c", "d") // want `strings\.NewReplacer with constant arguments` `strings\.NewReplacer with constant arguments`
	return a.Replace(b.Replace(s))
}

// HandleParam's local shadows a parameter of the same name, which its
// uses would refer to if the package-level variable took the name.
func HandleParam(nameRe string, ok bool) string {
	if ok {
		nameRe := regexp.MustCompile(`^z+$`) // want `regexp\.MustCompile with constant arguments`
		return nameRe.String()
	}
	return nameRe
}

// HandleLongest changes the regexp it builds: one shared regexp would be
// changed by every call, and concurrent calls would race on it.
func HandleLongest(s string) bool {
	re := regexp.MustCompile(`a+b`)
	re.Longest()
	return re.MatchString(s)
}

// HandlePage adds a template to the one it parses on every call.
func HandlePage(w *strings.Builder, v any) error {
	t := template.Must(template.New("page").Parse(`<p>{{template "x" .}}</p>`))
	template.Must(t.New("x").Parse(`{{.}}`))
	return t.Execute(w, v)
}
