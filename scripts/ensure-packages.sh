#!/bin/sh
# Install the Debian packages that are not installed yet.
# Usage: ensure-packages.sh package [package ...]
# For what no command reveals (a library's headers, say); for commands see
# ensure-tools.sh. A machine that has every package never touches apt.
set -eu
missing=""
for pkg in "$@"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    if [ "$status" != "install ok installed" ]; then
        missing="$missing $pkg"
    fi
done
[ -z "$missing" ] && exit 0
echo "ensure-packages: installing$missing" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq $missing >/dev/null
