package optlog

// This file reads the text the compiler prints with -gcflags=-m and
// -d=pgodebug (package decisions compares two builds with it); the rest of
// the package reads the JSON log written with -json=0,DIR.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/goadvise/goadvise/internal/funcname"
)

// A Remark is one line of the compiler's -m or -d=pgodebug output.
type Remark struct {
	Pkg    string   // package being compiled
	Pos    Position // position; for inlined code the outermost call site
	Kind   RemarkKind
	Callee string // RemarkInlineCall, RemarkCanInline, RemarkHotInline, RemarkHotBig, RemarkDevirt: the callee ("(*T).M" or "pkg.F")
	Caller string // RemarkHotInline, RemarkHotBig: the caller's linker name
	Name   string // escape remarks: the value
	Cost   int    // RemarkHotInline, RemarkHotBig: the callee's cost
	Expr   string // RemarkDevirt: the call expression
	Iface  bool   // RemarkDevirt: an interface call (else a function value)
}

// RemarkKind is the kind of a [Remark].
type RemarkKind int

// The kinds of remarks.
const (
	RemarkInlineCall RemarkKind = iota // "inlining call to F"
	RemarkCanInline                    // "can inline F"
	RemarkEscapes                      // "x escapes to heap"
	RemarkMoved                        // "moved to heap: x"
	RemarkNoEscape                     // "x does not escape"
	RemarkHotInline                    // "hot-budget check allows inlining for call F"
	RemarkHotBig                       // "hot-big check disallows inlining for call F"
	RemarkDevirt                       // "PGO devirtualizing interface call x.M to T.M"
)

// CallStat is one line of -d=pgodebug=3 output (devirtualize.CallStat).
type CallStat struct {
	Pkg                 string
	Pos                 string
	Caller              string
	Direct              bool
	Interface           bool
	Weight              int64
	Hottest             string
	HottestWeight       int64
	Devirtualized       string
	DevirtualizedWeight int64
}

// Remarks is the parsed output of a build with -m and
// -d=pgodebug.
type Remarks struct {
	Remarks []Remark               // in the order printed, without duplicates
	Stats   map[Position]*CallStat // -d=pgodebug=3 call statistics by call position
	HotCDF  string                 // hot-callsite-thres-from-CDF
}

// remarkREs are the patterns of -m and -d=pgodebug output, compiled on
// first use: every goadvise process, go vet's units included, would
// otherwise compile them at start-up.
var remarkREs = sync.OnceValue(func() *remarkPatterns {
	return &remarkPatterns{
		pos: regexp.MustCompile(`^((?:[A-Za-z]:)?[^:\s]+\.go):(\d+):(\d+): (.*)$`),
		// The names of instantiations hold spaces in their type
		// arguments ("(*Pointer[go.shape.struct { a int }]).Load"), so a
		// name is "(.+)" where the text after it delimits it and is cut
		// with funcname.Cut where it does not.
		hotBudget: regexp.MustCompile(`^hot-budget check allows inlining for call (.+) \(cost (\d+)\) at (.+\.go):(\d+):(\d+) in function (.+)$`),
		hotBig:    regexp.MustCompile(`^hot-big check disallows inlining for call (.+) \(cost (\d+)\) at (.+\.go):(\d+):(\d+) in big function (.+)$`),
		devirt:    regexp.MustCompile(`^PGO devirtualizing (interface|function) call (.+?) to (.+)$`),
	}
})

type remarkPatterns struct {
	pos, hotBudget, hotBig, devirt *regexp.Regexp
}

// ParseRemarks parses the output of go build with -gcflags=-m and
// -d=pgodebug=1 or 3. Relative file names are resolved against dir, the
// go command's directory. Only packages in keep are kept.
func ParseRemarks(r io.Reader, dir string, keep map[string]bool) (*Remarks, error) {
	out := &Remarks{Stats: make(map[Position]*CallStat)}
	re := remarkREs()
	abs := func(f string) string {
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		return filepath.Clean(f)
	}
	seen := make(map[Remark]bool)
	addRemark := func(r Remark) {
		if !seen[r] {
			seen[r] = true
			out.Remarks = append(out.Remarks, r)
		}
	}
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if h, ok := strings.CutPrefix(line, "# "); ok {
			pkg, _, _ = strings.Cut(h, " ")
			continue
		}
		if !keep[pkg] {
			continue
		}
		if strings.HasPrefix(line, `{"Pkg":`) {
			var st CallStat
			if err := json.Unmarshal([]byte(line), &st); err != nil {
				return nil, fmt.Errorf("malformed -d=pgodebug=3 call statistics: %v", err)
			}
			if p, ok := parseRemarkPos(st.Pos, abs); ok {
				out.Stats[p] = &st
			}
			continue
		}
		if v, ok := strings.CutPrefix(line, "hot-callsite-thres-from-CDF="); ok {
			out.HotCDF = v
			continue
		}
		if m := re.hotBudget.FindStringSubmatch(line); m != nil {
			cost, _ := strconv.Atoi(m[2])
			l, _ := strconv.Atoi(m[4])
			c, _ := strconv.Atoi(m[5])
			addRemark(Remark{Pkg: pkg, Kind: RemarkHotInline, Callee: m[1], Cost: cost, Pos: Position{abs(m[3]), l, c}, Caller: m[6]})
			continue
		}
		if m := re.hotBig.FindStringSubmatch(line); m != nil {
			cost, _ := strconv.Atoi(m[2])
			l, _ := strconv.Atoi(m[4])
			c, _ := strconv.Atoi(m[5])
			addRemark(Remark{Pkg: pkg, Kind: RemarkHotBig, Callee: m[1], Cost: cost, Pos: Position{abs(m[3]), l, c}, Caller: m[6]})
			continue
		}
		m := re.pos.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		l, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		rk := Remark{Pkg: pkg, Pos: Position{abs(m[1]), l, c}}
		msg := m[4]
		switch {
		case strings.HasPrefix(msg, "inlining call to "):
			rk.Kind = RemarkInlineCall
			rk.Callee, _ = funcname.Cut(strings.TrimPrefix(msg, "inlining call to "))
		case strings.HasPrefix(msg, "can inline "):
			rk.Kind = RemarkCanInline
			rk.Callee, _ = funcname.Cut(strings.TrimPrefix(msg, "can inline "))
		case strings.HasPrefix(msg, "moved to heap: "):
			rk.Kind = RemarkMoved
			rk.Name = strings.TrimPrefix(msg, "moved to heap: ")
		case strings.HasSuffix(msg, " escapes to heap"):
			rk.Kind = RemarkEscapes
			rk.Name = strings.TrimSuffix(msg, " escapes to heap")
		case strings.HasSuffix(msg, " does not escape") && !strings.HasPrefix(msg, "leaking"):
			rk.Kind = RemarkNoEscape
			rk.Name = strings.TrimSuffix(msg, " does not escape")
		default:
			if dm := re.devirt.FindStringSubmatch(msg); dm != nil {
				rk.Kind = RemarkDevirt
				rk.Iface = dm[1] == "interface"
				rk.Expr = dm[2]
				rk.Callee = dm[3]
				break
			}
			continue
		}
		addRemark(rk)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading compiler output: %w", err)
	}
	return out, nil
}

// parseRemarkPos parses "file:line:col", resolving file with abs.
func parseRemarkPos(s string, abs func(string) string) (Position, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return Position{}, false
	}
	j := strings.LastIndexByte(s[:i], ':')
	if j < 0 {
		return Position{}, false
	}
	l, err1 := strconv.Atoi(s[j+1 : i])
	c, err2 := strconv.Atoi(s[i+1:])
	if err1 != nil || err2 != nil {
		return Position{}, false
	}
	return Position{abs(s[:j]), l, c}, true
}
