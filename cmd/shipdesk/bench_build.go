//go:build benchprofile

package main

import (
	"net/http"
	_ "net/http/pprof" // the profiles the throughput benchmark fetches
	"os"
)

// With the build tag benchprofile (the throughput benchmark's
// SHIPDESK_BENCH_PROFILE), the binary serves net/http/pprof on
// SHIPDESK_PPROF_ADDR. Release builds have no such listener.
func init() {
	if addr := os.Getenv("SHIPDESK_PPROF_ADDR"); addr != "" {
		go func() { _ = http.ListenAndServe(addr, nil) }()
	}
}
