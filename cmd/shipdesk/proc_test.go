package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// What the benchmarks read of a child process from /proc: its CPU time and
// its peak resident memory, so the server's work is weighed apart from the
// load generator's.

// processCPU is the user and system time process pid has used so far.
func processCPU(tb testing.TB, pid int) time.Duration {
	tb.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		tb.Fatal(err)
	}
	// Fields after the command's name (in parentheses, which may hold
	// spaces): utime and stime are the 12th and 13th, in ticks of 1/100 s.
	rest := stat[bytes.LastIndexByte(stat, ')')+2:]
	f := strings.Fields(string(rest))
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		tb.Fatalf("/proc/%d/stat: %q", pid, stat)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// peakRSS is the most resident memory process pid has had (VmHWM).
func peakRSS(tb testing.TB, pid int) uint64 {
	tb.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				tb.Fatalf("VmHWM %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	tb.Fatal("no VmHWM in /proc status")
	return 0
}
