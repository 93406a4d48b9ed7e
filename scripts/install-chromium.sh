#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests, in its headless build (the
# same engine without the desktop window; never a browser download of a test
# tool's own: this machine reaches only the package registries).
set -euo pipefail
command -v chromium-headless-shell >/dev/null 2>&1 && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing Debian's chromium-headless-shell for the browser tests" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium-headless-shell >/dev/null
