package resetkept

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"sync"
)

// A frameReader comes from a pool through an acquire function that makes
// one when the pool is empty; Use keeps its reader through a method of
// the same receiver.
type frameReader struct {
	src io.Reader
	n   int
}

func (f *frameReader) Use(r io.Reader) { f.n = 0; f.setSource(r) }

func (f *frameReader) setSource(r io.Reader) { f.src = r }

var frames sync.Pool

func acquireFrame() *frameReader {
	v := frames.Get()
	if v == nil {
		return &frameReader{}
	}
	return v.(*frameReader)
}

func releaseFrame(f *frameReader) {
	f.src = nil
	frames.Put(f)
}

func FrameLen(b []byte) int {
	f := acquireFrame()
	f.Use(bytes.NewReader(b)) // want `&bytes.Reader.*because it is stored in f.src; keep one bytes.Reader in a field of frameReader and pass it to f.Use after its Reset\(b\), instead of bytes.NewReader\(b\) per call: f keeps the value it is given \(in its field src\) and comes from a sync.Pool`
	n := f.n
	releaseFrame(f)
	return n
}

// A gzip.Reader from a pool keeps, in its own field, a reader that can
// read bytes one at a time: another package's type, so the reader is kept
// beside it. Reset is not inlined: the compiler says that it leaks its
// parameter, its code says where.
var zpool = sync.Pool{New: func() any { return new(gzip.Reader) }}

func Inflate(b []byte) ([]byte, error) {
	zr := zpool.Get().(*gzip.Reader)
	defer zpool.Put(zr)
	if err := zr.Reset(bytes.NewReader(b)); err != nil { // want `because it is passed to \(\*gzip.Reader\).Reset, which keeps it in its receiver's field r; keep one bytes.Reader beside zr \(in what holds it\) and pass it to zr.Reset after its Reset\(b\)`
		return nil, err
	}
	return io.ReadAll(zr)
}

// A lexer that the caller passes in outlives the call.
type lexer struct {
	in   io.RuneScanner
	next *lexer
}

func (l *lexer) Init(r io.RuneScanner) { l.in = r }

func Tokens(l *lexer, src string) rune {
	l.Init(strings.NewReader(src)) // want `keep one strings.Reader in a field of lexer and pass it to l.Init after its Reset\(src\), instead of strings.NewReader\(src\) per call: l keeps the value it is given \(in its field in\) and outlives the call`
	r, _, _ := l.in.ReadRune()
	return r
}

// FreshTokens makes its lexer: there is no earlier reader to reset.
func FreshTokens(src string) *lexer {
	l := &lexer{}
	l.Init(strings.NewReader(src))
	return l
}

// Pass keeps the reader in another lexer, not its receiver.
func (l *lexer) Pass(r io.RuneScanner) { l.next.Init(r) }

var shared lexer

// Share keeps the reader in a package-level lexer.
func (l *lexer) Share(r io.RuneScanner) { shared.in = r }

func Forward(l *lexer, src string) {
	l.Pass(strings.NewReader(src))
	l.Share(strings.NewReader(src))
}
