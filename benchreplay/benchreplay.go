// Package benchreplay answers recorded pages: the throughput benchmark's
// yardstick for what a page of a given size and headers can reach when
// nothing is done to make it. Its file is JSON, a path to its answer's
// status, headers and body, as the benchmark recorded them.
package benchreplay

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
)

// Answers are the recorded pages by path.
type Answers map[string]answer

type answer struct {
	Status  int                 `json:"status"`
	Headers map[string][]string `json:"headers"`
	Body    string              `json:"body"`
	body    []byte              // Body, converted once rather than per answer
}

// Load reads the answers kept in the file name.
func Load(name string) (Answers, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var as Answers
	if err := json.Unmarshal(b, &as); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for path, a := range as {
		a.body = []byte(a.Body)
		a.Headers["Content-Length"] = []string{strconv.Itoa(len(a.body))}
		as[path] = a
	}
	return as, nil
}

// Serve writes the answer recorded for r's path, as a bare handler would
// (its headers copied into the answer's, its status, its body in one
// write), and reports whether there was one.
func (as Answers) Serve(w http.ResponseWriter, r *http.Request) bool {
	a, ok := as[r.URL.Path]
	if !ok {
		return false
	}
	h := w.Header()
	for k, v := range a.Headers {
		h[k] = v
	}
	w.WriteHeader(a.Status)
	_, _ = w.Write(a.body)
	return true
}
