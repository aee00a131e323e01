package kv

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPutGet(t *testing.T) {
	s := NewStore()
	if v := s.Put("a", []byte("1"), nil); v != 1 {
		t.Fatalf("first put: version %d", v)
	}
	if v := s.Put("a", []byte("1"), nil); v != 1 {
		t.Fatalf("unchanged put: version %d", v)
	}
	if v := s.Put("a", []byte("2"), nil); v != 2 {
		t.Fatalf("changed put: version %d", v)
	}
	if e, ok := s.Get("a"); !ok || string(e.Value) != "2" {
		t.Fatalf("get: %v %v", e, ok)
	}
}

func TestKeysWindow(t *testing.T) {
	s := NewStore()
	for i := range 10 {
		s.Put(fmt.Sprintf("k%02d", i), []byte("x"), nil)
	}
	got := strings.Join(s.Keys("k", 2, 3), ",")
	if got != "k02,k03,k04" {
		t.Fatalf("Keys = %s", got)
	}
	if got := s.Keys("k", 20, 3); len(got) != 0 {
		t.Fatalf("Keys past the end = %v", got)
	}
}

func TestHandler(t *testing.T) {
	srv := httptest.NewServer(&Handler{Store: NewStore()})
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodPut, srv.URL+"/kv/x?team=a", strings.NewReader("hello"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("X-Version") != "1" {
		t.Fatalf("put: %s version %q", resp.Status, resp.Header.Get("X-Version"))
	}
	resp, err = http.Get(srv.URL + "/kv/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("get: %s", resp.Status)
	}
}

func BenchmarkPut(b *testing.B) {
	s := NewStore()
	val := []byte(strings.Repeat("v", 100))
	tags := map[string]string{"team": "a", "tier": "gold"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.Put(fmt.Sprint("key", i%100), val, tags)
	}
}

func BenchmarkKeys(b *testing.B) {
	s := NewStore()
	for i := range 1000 {
		s.Put(fmt.Sprintf("k%04d", i), []byte("x"), nil)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Keys("k0", 10, 50)
	}
}
