package web

import "net/http"

func mark() {}

// serve runs per request, whoever registers it.
func serve(w http.ResponseWriter, r *http.Request) {
	mark() // want `per-item: an HTTP handler: runs per request`
	render()
}

func render() {
	mark() // want `per-item: called from serve, which runs per item`
}

func Register(mux *http.ServeMux) {
	mux.HandleFunc("/", serve)
	mark() // want `unknown: exported: how often its callers run it is not known`
}
