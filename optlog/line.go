package optlog

import (
	"bytes"
	"unicode/utf8"
)

// decodeLine decodes one diagnostic line of the compiler's log into d, as
// json.Unmarshal would, for the lines the compiler writes: encoding/json's
// output for logopt's Diagnostic, with its keys, integers, strings and no
// space. It returns false for anything else (another key, a key twice, a
// float, a surrogate escape, invalid UTF-8...), leaving d in any state,
// and the caller decodes the line with encoding/json instead; so the
// result is always json.Unmarshal's, which FuzzDecodeLine checks.
//
// It exists for speed: encoding/json scans each line twice (validating,
// then decoding) through reflection, and std's logs have half a million
// lines; this reads each byte once.
func decodeLine(line []byte, d *logDiagnostic) bool {
	s := &lineScanner{b: line}
	ok := s.object(func(key []byte) bool {
		switch string(key) {
		case "range":
			return s.rangeStart(&d.Range)
		case "code":
			return s.str(&d.Code)
		case "message":
			return s.str(&d.Message)
		case "severity":
			var n int
			return s.integer(&n)
		case "source":
			var v string
			return s.str(&v)
		case "relatedInformation":
			return s.related(&d.Related)
		}
		return false
	})
	if !ok {
		return false
	}
	for ; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

// lineScanner reads a line of JSON from b at i.
type lineScanner struct {
	b []byte
	i int
}

// consume reports whether the next byte is c, and skips it if so.
func (s *lineScanner) consume(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object reads an object, calling field for each key with the scanner on
// the key's value; a key twice is refused (encoding/json would keep the
// last value: rather than imitate that, decode such a line with it).
func (s *lineScanner) object(field func(key []byte) bool) bool {
	if !s.consume('{') {
		return false
	}
	if s.consume('}') {
		return true
	}
	var seen [8][]byte
	n := 0
	for {
		key, ok := s.rawKey()
		if !ok || !s.consume(':') || n == len(seen) {
			return false
		}
		for _, k := range seen[:n] {
			if bytes.Equal(k, key) {
				return false
			}
		}
		seen[n] = key
		n++
		if !field(key) {
			return false
		}
		if s.consume('}') {
			return true
		}
		if !s.consume(',') {
			return false
		}
	}
}

// rawKey reads a key without escapes.
func (s *lineScanner) rawKey() ([]byte, bool) {
	if !s.consume('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], true
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return nil, false
		}
		s.i++
	}
	return nil, false
}

// str reads a string into v.
func (s *lineScanner) str(v *string) bool {
	if !s.consume('"') {
		return false
	}
	start := s.i
	var buf []byte // the string so far, once it has had an escape
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			if buf == nil {
				*v = string(s.b[start:s.i])
			} else {
				*v = string(append(buf, s.b[start:s.i]...))
			}
			s.i++
			return true
		case c == '\\':
			buf = append(buf, s.b[start:s.i]...)
			r, ok := s.escape()
			if !ok {
				return false
			}
			buf = utf8.AppendRune(buf, r)
			start = s.i
			continue
		case c < 0x20:
			return false
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(s.b[s.i:])
			if r == utf8.RuneError && n == 1 {
				return false // encoding/json would replace it
			}
			s.i += n
			continue
		}
		s.i++
	}
	return false
}

// escape reads the escape sequence at s.i, backslash included.
func (s *lineScanner) escape() (rune, bool) {
	if s.i+1 >= len(s.b) {
		return 0, false
	}
	e := s.b[s.i+1]
	s.i += 2
	switch e {
	case '"', '\\', '/':
		return rune(e), true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'u':
		r, ok := s.hex4()
		if !ok || r >= 0xD800 && r < 0xE000 {
			return 0, false // surrogates: leave them to encoding/json
		}
		return r, true
	}
	return 0, false
}

// hex4 reads the four hexadecimal digits of a \u escape.
func (s *lineScanner) hex4() (rune, bool) {
	if s.i+4 > len(s.b) {
		return 0, false
	}
	var r rune
	for _, c := range s.b[s.i : s.i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	s.i += 4
	return r, true
}

// integer reads a non-negative integer of at most 9 digits (no leading
// zero), which fits an int anywhere.
func (s *lineScanner) integer(v *int) bool {
	start := s.i
	n := 0
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		n = n*10 + int(s.b[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || digits > 9 || digits > 1 && s.b[start] == '0' {
		return false
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return false
	}
	*v = n
	return true
}

// position reads {"line":N,"character":N} into p, or skips it if p is nil.
func (s *lineScanner) position(p *logPos) bool {
	var q logPos
	ok := s.object(func(key []byte) bool {
		switch string(key) {
		case "line":
			return s.integer(&q.Line)
		case "character":
			return s.integer(&q.Char)
		}
		return false
	})
	if ok && p != nil {
		*p = q
	}
	return ok
}

// rangeStart reads {"start":...,"end":...} into r (which keeps the start).
func (s *lineScanner) rangeStart(r *logRange) bool {
	return s.object(func(key []byte) bool {
		switch string(key) {
		case "start":
			return s.position(&r.Start)
		case "end":
			return s.position(nil)
		}
		return false
	})
}

// related reads the relatedInformation array into v.
func (s *lineScanner) related(v *[]logRelated) bool {
	if !s.consume('[') {
		return false
	}
	list := []logRelated{} // encoding/json makes an empty array non-nil
	if s.consume(']') {
		*v = list
		return true
	}
	for {
		var ri logRelated
		ok := s.object(func(key []byte) bool {
			switch string(key) {
			case "location":
				return s.object(func(key []byte) bool {
					switch string(key) {
					case "uri":
						return s.str(&ri.Location.URI)
					case "range":
						return s.rangeStart(&ri.Location.Range)
					}
					return false
				})
			case "message":
				return s.str(&ri.Message)
			}
			return false
		})
		if !ok {
			return false
		}
		list = append(list, ri)
		if s.consume(']') {
			*v = list
			return true
		}
		if !s.consume(',') {
			return false
		}
	}
}
