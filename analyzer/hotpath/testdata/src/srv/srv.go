// Package srv starts servers on listeners: a function that ends by
// handing its listener to the server that serves it runs once per
// listener, loops included, and so does what only it calls; the function
// the listener is handed to serves its connections, and its loops are
// hot.
package srv

import (
	"net"
	"net/http"
)

func mark() {}

// An App serves routes.
type App struct {
	routes []string
	server *Server
}

// Listen opens a listener, prints a banner and serves: the shape of a web
// framework's Listen.
func (app *App) Listen(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	for range app.routes {
		mark() // want `cold: runs once per listener: the function ends by handing its listener to the server that serves it`
	}
	app.banner()
	return app.server.Serve(ln)
}

// Listener serves a listener its caller opened.
func (app *App) Listener(ln net.Listener) error {
	app.banner()
	return app.server.Serve(ln)
}

// banner is called only where a server starts.
func (app *App) banner() {
	for range app.routes {
		mark() // want `cold: runs once: called only from a function that starts a server on a listener`
	}
}

// A Server serves the connections of listeners.
type Server struct{}

// Serve accepts connections until the listener fails: its loop runs per
// connection.
func (s *Server) Serve(ln net.Listener) error {
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		mark() // want `hot-loop: inside a loop`
		c.Close()
	}
}

// Run serves HTTP on addr through net/http, ignoring Serve's error as a
// statement.
func Run(addr string, h http.Handler, paths []string) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return
	}
	for range paths {
		mark() // want `cold: runs once per listener: .*`
	}
	http.Serve(ln, h)
}

// A limited listener wraps another: a listener too.
type limited struct {
	net.Listener
	n int
}

// Start hands a wrapped listener to serveOn, which serves it.
func Start(ln net.Listener, n int) error {
	mark() // want `cold: runs once per listener: .*`
	return serveOn(&limited{ln, n})
}

// serveOn is called once, where the server starts, but serves the
// listener it is given: its loop is hot, the rest runs once.
func serveOn(ln *limited) error {
	mark() // want `cold: runs once: called only from a function that starts a server on a listener`
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		mark() // want `hot-loop: inside a loop`
		c.Close()
	}
}

// Background serves in a goroutine and goes on: it does not end by
// handing the listener over, and its code keeps its estimate.
func Background(s *Server, ln net.Listener, paths []string) error {
	go s.Serve(ln)
	for range paths {
		mark() // want `hot-loop: inside a loop`
	}
	return nil
}

// Dial ends with a call that is not given a listener.
func Dial(addrs []string) (net.Conn, error) {
	for range addrs {
		mark() // want `hot-loop: inside a loop`
	}
	return net.Dial("tcp", addrs[0])
}
