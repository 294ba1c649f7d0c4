#!/usr/bin/env bash
# Install the Debian packages Herna needs when they are missing:
#   bubblewrap (the sandbox submitted bots run in: herna/core/sandbox.py; `herna serve` runs
#   without it and says that submitted bots cannot be played until it is installed) and gcc
#   (the compiler of submitted C bots, run inside that sandbox): `make run` and `make test`;
#   postgresql (a real server for the storage tests) and chromium (web hall browser tests):
#   `make test` only (`--run` leaves them out).
set -euo pipefail
run_only=0
if [ "${1:-}" = "--run" ]; then run_only=1; shift; fi
# Extra package names as arguments (`make bench` asks for wrk this way).
need=()
for extra in "$@"; do command -v "$extra" >/dev/null 2>&1 || need+=("$extra"); done
if [ "$run_only" -eq 0 ]; then
  ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql)
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
fi
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
[ -x /usr/bin/gcc ] || need+=(gcc libc6-dev)
[ ${#need[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${need[*]}" >&2
sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
