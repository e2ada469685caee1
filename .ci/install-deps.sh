#!/usr/bin/env bash
# Installs the Debian packages getile builds and tests with, when any is missing.
# Run as root on Debian (the README's first command runs it for you through make).
set -eu
pkgs="build-essential pkg-config clang libclang-rt-14-dev libuv1-dev libmsgpack-dev libpng-dev libzstd-dev libsnappy-dev libzip-dev zlib1g-dev python3-msgpack"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "getile: missing Debian packages:$missing" >&2
  echo "getile: run as root: apt-get update && apt-get install -y$missing" >&2
  exit 1
fi
echo "getile: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq $missing >/dev/null
