#!/usr/bin/env bash
# pg.sh start|stop|url DIR — a private PostgreSQL cluster in DIR (for example var/pg).
#
# It listens only on a Unix socket inside DIR (no TCP port, so it never clashes with
# another PostgreSQL on the machine), trusts local connections (the socket directory
# is 0700), and installs Debian's postgresql package when no server binaries exist.
# PostgreSQL refuses to run as root, so as root the cluster runs as the postgres user.
# "start" prints the connection URL on stdout; everything else goes to stderr.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop|url DIR [--fast]" >&2; exit 2; }
fast=${3:-}

say() { echo "pg.sh: $*" >&2; }

find_bindir() {
	local d
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		[ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
	done
	return 1
}

install_server() {
	say "no PostgreSQL server binaries found; installing Debian's postgresql package"
	local sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >&2
}

# run_pg runs a command as the cluster's owner.
run_pg() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

mkdir -p "$dir"
dir=$(cd "$dir" && pwd -P)
data="$dir/data"
sock="$dir/run"
url="postgres://shipdesk@/shipdesk?host=$sock&sslmode=disable"
if [ ${#sock} -gt 90 ]; then
	say "the socket path $sock is too long for a Unix socket; move the checkout to a shorter path"
	exit 1
fi

case "$cmd" in
url)
	echo "$url"
	exit 0
	;;
stop)
	bindir=$(find_bindir) || exit 0
	if [ -f "$data/postmaster.pid" ]; then
		run_pg "$bindir/pg_ctl" -D "$data" -m fast -w stop >&2 || true
	fi
	exit 0
	;;
start) ;;
*)
	echo "usage: $0 start|stop|url DIR" >&2
	exit 2
	;;
esac

bindir=$(find_bindir) || { install_server; bindir=$(find_bindir); }

if [ "$(id -u)" -eq 0 ]; then
	id postgres >/dev/null 2>&1 || { say "user postgres is missing (install the postgresql package)"; exit 1; }
	if ! runuser -u postgres -- test -x "$dir"; then
		say "the postgres user cannot reach $dir; grant it: chmod o+x on each parent directory"
		exit 1
	fi
fi

if [ ! -f "$data/PG_VERSION" ]; then
	say "creating a private cluster in $data"
	mkdir -p "$data" "$sock"
	[ "$(id -u)" -eq 0 ] && chown postgres: "$data" "$sock"
	chmod 700 "$data" "$sock"
	run_pg "$bindir/initdb" -D "$data" -U shipdesk --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$sock'"
		echo "unix_socket_permissions = 0700"
		echo "max_connections = 200"
		echo "shared_buffers = 128MB"
		if [ "$fast" = "--fast" ]; then
			# Throwaway test cluster: durability is not needed, speed is.
			echo "fsync = off"
			echo "synchronous_commit = off"
			echo "full_page_writes = off"
		fi
	} | run_pg tee -a "$data/postgresql.conf" >/dev/null
fi

if ! run_pg "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; then
	run_pg "$bindir/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 start >&2 || {
		say "PostgreSQL did not start; see $data/server.log"
		tail -20 "$data/server.log" >&2
		exit 1
	}
fi

# The database named after the role, created once.
if ! run_pg "$bindir/psql" -h "$sock" -U shipdesk -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname='shipdesk'" | grep -q 1; then
	run_pg "$bindir/createdb" -h "$sock" -U shipdesk shipdesk
fi
echo "$url"
