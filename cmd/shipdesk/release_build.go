//go:build !bench

package main

import "net/http"

// benchHandler is h: only the benchmark's build (tag bench) adds to it.
func benchHandler(h http.Handler) (http.Handler, error) { return h, nil }
