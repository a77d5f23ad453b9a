#!/bin/sh
# Install the Debian packages that provide missing commands.
# Usage: ensure-tools.sh command:package [command:package ...]
# Only packages whose command is absent are installed, so a machine that has
# everything never touches apt.
set -eu
missing=""
for pair in "$@"; do
    cmd=${pair%%:*}
    pkg=${pair#*:}
    if ! command -v "$cmd" >/dev/null 2>&1; then
        missing="$missing $pkg"
    fi
done
[ -z "$missing" ] && exit 0
echo "ensure-tools: installing$missing" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq $missing >/dev/null
