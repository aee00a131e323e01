// Command demoserver serves the demo key-value store over HTTP.
package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/goadvise/goadvise/testdata/demo/kv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	flag.Parse()
	h := &kv.Handler{Store: kv.NewStore(), Log: log.Printf}
	log.Fatal(http.ListenAndServe(*addr, h))
}
