#!/usr/bin/env bash
# benchtable.sh [FILE…] — the figures of `go test -bench` output as one table.
#
# Each result line of Go's benchmark output ("BenchmarkX-2  1  123 ns/op
# 4.5 page/sql …") becomes rows of | benchmark | figure | value |, one per
# figure the benchmark reported (b.ReportMetric), in the order they came.
# The goals are said in each benchmark's comment beside its ReportMetric.
set -euo pipefail
echo "| benchmark | figure | value |"
echo "|---|---|---|"
awk '
/^Benchmark/ && NF >= 4 {
	name = $1
	sub(/-[0-9]+$/, "", name)
	for (i = 3; i + 1 <= NF; i += 2) {
		if ($(i + 1) == "B/op" || $(i + 1) == "allocs/op") continue
		printf "| %s | %s | %s |\n", name, $(i + 1), $i
	}
}
' "$@"
