// Command bare is the yardstick of the throughput benchmark: net/http's hello
// handler on a real http.Server, nothing else. It prints its address and
// serves until it is stopped.
//
// With BARE_REPLAY naming a file of recorded answers (JSON: a path to its
// answer's status, headers and body) it also answers each of those paths with
// exactly that answer: the same bytes and headers as a page of the dashboard,
// with none of the work of making them.
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
	body    []byte              // Body, converted once rather than per answer
}

func main() {
	var replay map[string]recorded
	if name := os.Getenv("BARE_REPLAY"); name != "" {
		b, err := os.ReadFile(name)
		if err == nil {
			err = json.Unmarshal(b, &replay)
		}
		for path, answer := range replay {
			answer.body = []byte(answer.Body)
			answer.Headers["Content-Length"] = []string{strconv.Itoa(len(answer.body))}
			replay[path] = answer
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
		if answer, ok := replay[r.URL.Path]; ok {
			h := w.Header()
			for k, v := range answer.Headers {
				h[k] = v
			}
			w.WriteHeader(answer.Status)
			_, _ = w.Write(answer.body)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("Hello, world!\n"))
	})}
	fmt.Fprintln(os.Stderr, srv.Serve(ln))
}
