// Command bare is the yardstick of the throughput benchmark: net/http's hello
// handler on a real http.Server, nothing else. It prints its address and
// serves until it is stopped.
//
// With BARE_REPLAY naming a recorded answer (JSON: status, headers, body) it
// also answers /replay with exactly that answer: the same bytes as a page of
// the dashboard, with none of the work of making them.
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
)

type recorded struct {
	Status  int                 `json:"status"`
	Headers map[string][]string `json:"headers"`
	Body    string              `json:"body"`
}

func main() {
	var replay *recorded
	if name := os.Getenv("BARE_REPLAY"); name != "" {
		b, err := os.ReadFile(name)
		if err == nil {
			replay = &recorded{}
			err = json.Unmarshal(b, replay)
		}
		if err != nil {
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
		if replay != nil && r.URL.Path == "/replay" {
			h := w.Header()
			for k, v := range replay.Headers {
				h[k] = v
			}
			h.Set("Content-Length", strconv.Itoa(len(replay.Body)))
			w.WriteHeader(replay.Status)
			_, _ = w.Write([]byte(replay.Body))
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("Hello, world!\n"))
	})}
	fmt.Fprintln(os.Stderr, srv.Serve(ln))
}
