#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests (never a browser download of a
# test tool's own: this machine reaches only the package registries).
set -euo pipefail
command -v chromium >/dev/null 2>&1 && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing Debian's chromium for the browser tests" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
