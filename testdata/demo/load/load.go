// Package load drives the demo service with a fixed mix of work, so that a
// benchmark of it produces a CPU profile shaped like the service's
// production profile: most time decoding messages and storing values, some
// in listing keys and diffing snapshots.
package load

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/goadvise/goadvise/testdata/demo/kv"
	"github.com/goadvise/goadvise/testdata/demo/wire"
)

// A Mix is a prepared workload.
type Mix struct {
	stream  []byte
	handler *kv.Handler
	before  map[string]kv.Entry
}

// NewMix prepares a workload of n messages.
func NewMix(n int) *Mix {
	var buf bytes.Buffer
	w := wire.NewWriter(&buf)
	for i := range n {
		w.Write(&wire.Message{Kind: wire.KindPut, Key: []byte(fmt.Sprintf("user:%04d", i%500)), Value: bytes.Repeat([]byte{byte(i)}, 48), Version: uint32(i)})
	}
	w.Flush()
	m := &Mix{stream: buf.Bytes(), handler: &kv.Handler{Store: kv.NewStore()}, before: map[string]kv.Entry{}}
	for i := range 200 {
		m.before[fmt.Sprintf("user:%04d", i)] = kv.Entry{Version: uint32(i), Tags: map[string]string{"team": "a"}}
	}
	return m
}

// Run does one round of the workload: it decodes every message of the
// stream and stores it through the HTTP handler, lists keys, and diffs a
// snapshot.
func (m *Mix) Run() error {
	r := wire.NewReader(bytes.NewReader(m.stream))
	for i := 0; ; i++ {
		msg, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		req := httptest.NewRequest(http.MethodPut, "/kv/"+string(msg.Key)+"?team=a", bytes.NewReader(msg.Value))
		rec := httptest.NewRecorder()
		m.handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusNoContent {
			return fmt.Errorf("put %s: status %d", msg.Key, rec.Code)
		}
		if i%50 == 0 {
			rec := httptest.NewRecorder()
			m.handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/keys?prefix=user:00&limit=20", nil))
			if !strings.Contains(rec.Body.String(), "keys") {
				return fmt.Errorf("keys: %q", rec.Body.String())
			}
		}
	}
	after := make(map[string]kv.Entry, len(m.before))
	for k, e := range m.before {
		e.Version++
		after[k] = e
	}
	if len(kv.Changed(m.before, after)) != len(after) {
		return fmt.Errorf("diff missed changes")
	}
	return nil
}
