#!/usr/bin/env bash
# Create the virtual environment, installing Debian's venv support if this Python lacks it.
set -euo pipefail
python=${1:-python3}
venv=${2:-.venv}
# PyICU (look-alike names) builds against the system's ICU: make sure its headers are there.
if ! pkg-config --exists icu-i18n 2>/dev/null || ! command -v g++ >/dev/null; then
  echo "ICU headers missing; installing libicu-dev pkg-config g++" >&2
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq libicu-dev pkg-config g++
fi
[ -x "$venv/bin/python" ] && exit 0
if ! "$python" -m venv "$venv" 2>/dev/null; then
  rm -rf "$venv"
  echo "python venv module missing; installing python3-venv" >&2
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq python3-venv
  "$python" -m venv "$venv"
fi
