// Command svc runs the server: with it the program is closed.
package main

import (
	"fmt"
	"os"

	"example.com/svc/gen"
	"example.com/svc/server"
)

func main() {
	s := server.New(len(os.Args) > 1)
	n, err := s.Serve([][]byte{[]byte("hello")})
	fmt.Println(n, err, gen.Lens(os.Args), server.Fill)
}
