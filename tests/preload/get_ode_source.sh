#!/bin/sh
# Unpacks Debian's `ode` source package (the version of the installed libode-dev) into DIR, for
# the shim's real-client tests (ODE's own demos). Adds a deb-src twin of the Debian entry when
# apt has none. Does nothing when DIR already holds it. Needs root or passwordless sudo the
# first time, like `make deps`.
set -eu
dir=$1
version=$(dpkg-query -W -f='${Version}' libode-dev)
upstream=$(echo "$version" | sed 's/^[0-9]*://; s/-[^-]*$//')
[ -f "$dir/ode-$upstream/ode/demo/demo_chain1.c" ] && exit 0

if [ "$(id -u)" = 0 ]; then sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"
else echo "impax: fetching ODE's source needs root or sudo (apt-get source ode)" >&2; exit 1; fi

if ! apt-get source --print-uris -qq "ode=$version" >/dev/null 2>&1; then
  for list in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
    [ -f "$list" ] || continue
    case $list in
      *.sources) sed -n 's/^Types: deb$/Types: deb-src/; p' "$list" |
                   $sudo tee /etc/apt/sources.list.d/impax-deb-src.sources >/dev/null ;;
      *) grep '^deb ' "$list" | sed 's/^deb /deb-src /' |
           $sudo tee /etc/apt/sources.list.d/impax-deb-src.list >/dev/null ;;
    esac
    break
  done
  $sudo apt-get update -qq
fi
mkdir -p "$dir"
cd "$dir"
# apt's sandbox user cannot write into a root-owned build tree; the download is a source tarball
apt-get source -qq "ode=$version" 2>&1 | grep -v 'unsandboxed' || true
[ -f "$dir/ode-$upstream/ode/demo/demo_chain1.c" ] || {
  echo "impax: apt-get source ode=$version did not unpack into $dir" >&2; exit 1; }
