//go:build bench

package main

import (
	"fmt"
	"net/http"
	_ "net/http/pprof" // the profiles the throughput benchmark fetches
	"os"

	"shipdesk/benchreplay"
)

// With the build tag bench (the throughput benchmark's build), the binary
// serves net/http/pprof on SHIPDESK_PPROF_ADDR, and with
// SHIPDESK_BENCH_REPLAY naming a file of recorded pages (benchreplay) it
// answers their paths before the dashboard's shell: what this process, with
// its timeouts, change feed, pollers and sandbox running, can reach for a
// page's bytes when nothing is done to make them. Release builds have
// neither; without the variables this build serves as they do.
func init() {
	if addr := os.Getenv("SHIPDESK_PPROF_ADDR"); addr != "" {
		go func() { _ = http.ListenAndServe(addr, nil) }()
	}
}

// benchHandler puts the recorded pages of SHIPDESK_BENCH_REPLAY in front of h.
func benchHandler(h http.Handler) (http.Handler, error) {
	name := os.Getenv("SHIPDESK_BENCH_REPLAY")
	if name == "" {
		return h, nil
	}
	replay, err := benchreplay.Load(name)
	if err != nil {
		return nil, fmt.Errorf("SHIPDESK_BENCH_REPLAY: %w", err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !replay.Serve(w, r) {
			h.ServeHTTP(w, r)
		}
	}), nil
}
