// Command bare is the yardstick of the throughput benchmark: net/http's hello
// handler on a real http.Server, nothing else. It prints its address and
// serves until it is stopped.
//
// With BARE_REPLAY naming a file of recorded answers (benchreplay) it also
// answers each of those paths with exactly that answer: the same bytes and
// headers as a page of the dashboard, with none of the work of making them.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"

	"shipdesk/benchreplay"
)

func main() {
	var replay benchreplay.Answers
	if name := os.Getenv("BARE_REPLAY"); name != "" {
		var err error
		if replay, err = benchreplay.Load(name); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("serving on http://%s/\n", ln.Addr())
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if replay.Serve(w, r) {
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("Hello, world!\n"))
	})}
	fmt.Fprintln(os.Stderr, srv.Serve(ln))
}
