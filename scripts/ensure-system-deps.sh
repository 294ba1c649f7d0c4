#!/usr/bin/env bash
# Install the Debian packages the test suite needs when they are missing:
#   postgresql (a real server for the storage tests), chromium (web hall browser tests),
#   bubblewrap (the sandbox submitted bots run in: herna/core/sandbox.py; `herna serve` runs
#   without it and says that submitted bots cannot be played until it is installed).
set -euo pipefail
# Extra package names as arguments (`make bench` asks for wrk this way).
need=()
for extra in "$@"; do command -v "$extra" >/dev/null 2>&1 || need+=("$extra"); done
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
[ ${#need[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${need[*]}" >&2
sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
