// Command bare is the yardstick of the throughput benchmark: net/http's hello
// handler on a real http.Server, nothing else. It prints its address and
// serves until it is stopped.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
)

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("serving on http://%s/\n", ln.Addr())
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("Hello, world!\n"))
	})}
	fmt.Fprintln(os.Stderr, srv.Serve(ln))
}
