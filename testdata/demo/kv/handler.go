package kv

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
)

// A Handler serves a Store over HTTP:
//
//	GET  /kv/KEY     the value
//	PUT  /kv/KEY     store the body
//	GET  /keys?prefix=P&skip=N&limit=M
type Handler struct {
	Store *Store
	Log   func(format string, args ...any)
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/keys":
		h.keys(w, r)
	case len(r.URL.Path) > 4 && r.URL.Path[:4] == "/kv/":
		key := r.URL.Path[4:]
		switch r.Method {
		case http.MethodGet:
			h.get(w, key)
		case http.MethodPut:
			h.put(w, r, key)
		default:
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		}
	default:
		http.NotFound(w, r)
	}
}

func (h *Handler) get(w http.ResponseWriter, key string) {
	e, ok := h.Store.Get(key)
	if !ok {
		http.NotFound(w, nil)
		return
	}
	w.Header().Set("X-Version", strconv.FormatUint(uint64(e.Version), 10))
	w.Write(e.Value)
}

func (h *Handler) put(w http.ResponseWriter, r *http.Request, key string) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	tags := map[string]string{}
	for k, v := range r.URL.Query() {
		tags[k] = v[0]
	}
	v := h.Store.Put(key, body, tags)
	if h.Log != nil {
		h.Log("put %s version %d", key, v)
	}
	w.Header().Set("X-Version", strconv.FormatUint(uint64(v), 10))
	w.WriteHeader(http.StatusNoContent)
}

type keysReply struct {
	Keys  []string `json:"keys"`
	Count int      `json:"count"`
}

func (h *Handler) keys(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	skip, _ := strconv.Atoi(q.Get("skip"))
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil || limit <= 0 {
		limit = 100
	}
	keys := h.Store.Keys(listPrefix(q.Get("prefix")), skip, limit)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(&keysReply{Keys: keys, Count: len(keys)})
}
