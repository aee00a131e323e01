package pgo

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// DefaultMaxSize is the default limit on the decompressed size of one
// profile.
const DefaultMaxSize = 512 << 20

// OpenOptions control how profiles are read.
type OpenOptions struct {
	// MaxSize limits the decompressed size of one profile in bytes, which
	// guards against gzip bombs. Zero means DefaultMaxSize.
	MaxSize int64

	// Timeout limits the time of one HTTP request. Zero means the
	// profile's duration (the seconds parameter of the URL, 30 if absent)
	// plus 30 seconds.
	Timeout time.Duration

	// Client is the HTTP client to use; nil means a default client.
	Client *http.Client
}

func (o OpenOptions) maxSize() int64 {
	if o.MaxSize <= 0 {
		return DefaultMaxSize
	}
	return o.MaxSize
}

// A Profile is one parsed profile and where it came from.
type Profile struct {
	// Name is the file path or URL the profile was read from.
	Name string
	*profile.Profile
}

// isURL reports whether source names an HTTP(S) endpoint.
func isURL(source string) bool {
	return strings.HasPrefix(source, "http://") || strings.HasPrefix(source, "https://")
}

// Expand returns the individual profiles named by sources: files and URLs
// are kept; a directory stands for the regular files directly in it whose
// names do not start with a dot, in lexical order.
func Expand(sources []string) ([]string, error) {
	var out []string
	for _, s := range sources {
		if isURL(s) {
			out = append(out, s)
			continue
		}
		fi, err := os.Stat(s)
		if err != nil {
			return nil, oneLine(err)
		}
		if !fi.IsDir() {
			out = append(out, s)
			continue
		}
		entries, err := os.ReadDir(s)
		if err != nil {
			return nil, oneLine(err)
		}
		n := len(out)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") || !e.Type().IsRegular() {
				continue
			}
			out = append(out, filepath.Join(s, e.Name()))
		}
		if len(out) == n {
			return nil, fmt.Errorf("%s: directory contains no profiles", s)
		}
	}
	return out, nil
}

// Open returns the profiles named by source, a file, a directory of files
// or an http(s) URL, one at a time. Each profile is read only when the
// iteration reaches it. Errors are yielded with a nil profile; iteration
// continues with the next profile if the caller does not stop.
func Open(ctx context.Context, source string, opts OpenOptions) iter.Seq2[*Profile, error] {
	return func(yield func(*Profile, error) bool) {
		names, err := Expand([]string{source})
		if err != nil {
			yield(nil, err)
			return
		}
		for _, name := range names {
			p, err := Read(ctx, name, opts)
			if !yield(p, err) {
				return
			}
		}
	}
}

// Read reads and parses one profile from a file or an http(s) URL. The
// data may be gzip-compressed. The profile is checked for internal
// consistency but not for its kind; see [Inspect].
//
// Errors are one line and name the file or URL.
func Read(ctx context.Context, name string, opts OpenOptions) (*Profile, error) {
	var data []byte
	var err error
	if isURL(name) {
		data, err = fetch(ctx, name, opts)
	} else {
		data, err = readFile(name, opts.maxSize())
	}
	if err != nil {
		return nil, err
	}
	p, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &Profile{Name: name, Profile: p}, nil
}

// ReadData parses one profile from data, which may be gzip-compressed,
// decompressing at most maxSize bytes (DefaultMaxSize if maxSize <= 0).
// It is [Read] for data already in memory.
func ReadData(data []byte, maxSize int64) (*profile.Profile, error) {
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	data, err := decompress(bytes.NewReader(data), maxSize)
	if err != nil {
		return nil, err
	}
	return parse(data)
}

func readFile(name string, maxSize int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, oneLine(err)
	}
	defer f.Close()
	data, err := decompress(f, maxSize)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return data, nil
}

// decompress reads all of r, decompressing it if it is gzip data, and
// fails if the result would exceed maxSize bytes.
func decompress(r io.Reader, maxSize int64) ([]byte, error) {
	br := bufio.NewReader(r)
	magic, _ := br.Peek(2)
	var src io.Reader = br
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("bad gzip data: %v", err)
		}
		defer gz.Close()
		src = gz
	}
	data, err := io.ReadAll(io.LimitReader(src, maxSize+1))
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) {
			return nil, fmt.Errorf("truncated or corrupt gzip data: %v", err)
		}
		return nil, fmt.Errorf("reading: %v", err)
	}
	if int64(len(data)) > maxSize {
		return nil, fmt.Errorf("profile larger than %d bytes after decompression (a gzip bomb, or raise the size limit)", maxSize)
	}
	return data, nil
}

// parse parses uncompressed profile.proto data. It never panics.
func parse(data []byte) (p *profile.Profile, err error) {
	if len(data) == 0 {
		return nil, errors.New("empty profile")
	}
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		return nil, errors.New("doubly gzip-compressed data is not a profile")
	}
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("malformed profile (parser failed: %v)", r)
		}
	}()
	p, err = profile.ParseUncompressed(data)
	if err != nil {
		return nil, fmt.Errorf("not a pprof profile: %v", oneLine(err))
	}
	if err := p.CheckValid(); err != nil {
		return nil, fmt.Errorf("malformed profile: %v", oneLine(err))
	}
	return p, nil
}

// fetch reads a profile from a net/http/pprof endpoint.
func fetch(ctx context.Context, rawURL string, opts OpenOptions) ([]byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%s: bad URL: %v", rawURL, err)
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		secs := 30
		if s := u.Query().Get("seconds"); s != "" {
			if n, err := strconv.Atoi(s); err == nil && n >= 0 {
				secs = n
			}
		}
		timeout = time.Duration(secs)*time.Second + 30*time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", rawURL, oneLine(err))
	}
	client := opts.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, fmt.Errorf("%s: no answer within %v", rawURL, timeout)
		}
		return nil, fmt.Errorf("%s: %v", rawURL, oneLine(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		msg := strings.Join(strings.Fields(string(body)), " ")
		if msg != "" {
			msg = ": " + msg
		}
		return nil, fmt.Errorf("%s: HTTP status %s%s", rawURL, resp.Status, msg)
	}
	data, err := decompress(resp.Body, opts.maxSize())
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, fmt.Errorf("%s: no complete answer within %v", rawURL, timeout)
		}
		return nil, fmt.Errorf("%s: %v", rawURL, err)
	}
	return data, nil
}

// oneLine returns err with its message folded onto one line.
func oneLine(err error) error {
	msg := err.Error()
	if !strings.ContainsAny(msg, "\r\n") {
		return err
	}
	return errors.New(strings.Join(strings.Fields(msg), " "))
}

// Kind classifies a profile by its sample types.
type Kind int

// The kinds of profiles.
const (
	Other Kind = iota // neither CPU nor heap
	CPU               // samples/count and cpu/nanoseconds
	Heap              // alloc_space/bytes and alloc_objects/count, from runtime/pprof's heap or allocs profile
)

func (k Kind) String() string {
	switch k {
	case CPU:
		return "cpu"
	case Heap:
		return "heap"
	}
	return "other"
}

// Info summarizes a profile for the validity checks of merge and check.
type Info struct {
	Kind         Kind
	SampleTypes  string        // "samples/count,cpu/nanoseconds"
	Samples      int64         // sum of the samples/count value (CPU profiles) or of alloc_objects/count (heap profiles)
	Duration     time.Duration // the profile's duration, 0 if unknown
	Locations    int
	Unsymbolized int  // locations without any function
	StartLine    bool // some function has a start line
	Go           bool // some function is in package runtime
}

// Inspect summarizes p.
func Inspect(p *profile.Profile) Info {
	info := Info{Duration: time.Duration(p.DurationNanos), Locations: len(p.Location)}
	var types []string
	for _, st := range p.SampleType {
		types = append(types, st.Type+"/"+st.Unit)
	}
	info.SampleTypes = strings.Join(types, ",")
	if i, j := sampleIndex(p, "samples", "count"), sampleIndex(p, "cpu", "nanoseconds"); i >= 0 && j >= 0 {
		info.Kind = CPU
		for _, s := range p.Sample {
			info.Samples += s.Value[i]
		}
	} else if sampleIndex(p, "alloc_space", "bytes") >= 0 && sampleIndex(p, "alloc_objects", "count") >= 0 {
		info.Kind = Heap
		i := sampleIndex(p, "alloc_objects", "count")
		for _, s := range p.Sample {
			info.Samples += s.Value[i]
		}
	}
	for _, l := range p.Location {
		if len(l.Line) == 0 || slices.ContainsFunc(l.Line, func(ln profile.Line) bool { return ln.Function == nil }) {
			info.Unsymbolized++
		}
	}
	for _, f := range p.Function {
		if f.StartLine != 0 {
			info.StartLine = true
		}
		if strings.HasPrefix(f.Name, "runtime.") {
			info.Go = true
		}
	}
	return info
}

func sampleIndex(p *profile.Profile, typ, unit string) int {
	for i, st := range p.SampleType {
		if st.Type == typ && st.Unit == unit {
			return i
		}
	}
	return -1
}

// CheckPGO reports whether p can serve as a PGO profile. It returns an
// error, one line without the profile's name, if the compiler cannot use
// the profile, and warnings, one line each, for lesser problems.
func CheckPGO(p *profile.Profile) (warnings []string, err error) {
	info := Inspect(p)
	if err := checkKind(info, CPU); err != nil {
		return nil, err
	}
	switch {
	case info.Locations > 0 && info.Unsymbolized*2 > info.Locations:
		return nil, fmt.Errorf("not symbolized: %d of %d locations have no function name, and the compiler matches samples by name", info.Unsymbolized, info.Locations)
	case len(p.Sample) > 0 && !info.StartLine:
		return nil, errors.New("functions have no start_line (profile from Go before 1.20, or re-symbolized by a tool that drops it); the compiler cannot match its samples")
	}
	if info.Samples == 0 {
		warnings = append(warnings, ErrNoSamples.Error())
	}
	if info.Unsymbolized > 0 {
		warnings = append(warnings, fmt.Sprintf("%d of %d locations have no function name and will be dropped", info.Unsymbolized, info.Locations))
	}
	if !info.Go && len(p.Function) > 0 {
		warnings = append(warnings, "profile does not look like a Go program's (no runtime functions)")
	}
	if w := testBinaryWarning(p); w != "" {
		warnings = append(warnings, w)
	}
	if info.Duration > 0 && info.Duration < time.Second {
		warnings = append(warnings, fmt.Sprintf("short profile (%v); profiles of 30s or more represent a service better", info.Duration))
	}
	return warnings, nil
}

// A KindError says that a profile is not of the kind needed.
type KindError struct {
	Got, Want   Kind
	SampleTypes string // of the profile, as in [Info]
}

func (e *KindError) Error() string {
	switch e.Want {
	case CPU:
		msg := fmt.Sprintf("not a CPU profile (sample types %s; PGO needs samples/count and cpu/nanoseconds, e.g. from /debug/pprof/profile)", e.SampleTypes)
		if e.Got == Heap {
			msg += "; it is a heap profile"
		}
		return msg
	case Heap:
		msg := fmt.Sprintf("not a heap profile (sample types %s; want alloc_space/bytes and alloc_objects/count, e.g. from /debug/pprof/allocs)", e.SampleTypes)
		if e.Got == CPU {
			msg += "; it is a CPU profile"
		}
		return msg
	}
	return fmt.Sprintf("not a %v profile (sample types %s)", e.Want, e.SampleTypes)
}

func checkKind(info Info, want Kind) error {
	if info.Kind != want {
		return &KindError{Got: info.Kind, Want: want, SampleTypes: info.SampleTypes}
	}
	return nil
}

// CheckWeights reports whether p can weigh findings as a profile of kind
// want (CPU or Heap): it must be of that kind and have samples. The error
// is one line without the profile's name.
func CheckWeights(p *profile.Profile, want Kind) error {
	info := Inspect(p)
	if err := checkKind(info, want); err != nil {
		return err
	}
	if info.Samples == 0 {
		return ErrNoSamples
	}
	return nil
}

// ErrNoSamples is the error for a profile without samples.
var ErrNoSamples = errors.New("profile has no samples")
