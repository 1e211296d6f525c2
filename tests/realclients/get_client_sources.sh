#!/bin/sh
# Unpacks the sources of the real clients into DIR (default: build-sources at the repository's
# root, where tests/realclients and tests/preload look): Debian's `ode` source package (ODE's
# own demos, the version of the installed libode-dev) and `pyode`'s (PyODE's examples, the
# version of the installed python3-pyode). Only the upstream tarballs are fetched
# (apt-get source --tar-only): the demos and examples need none of Debian's patches. Adds a
# deb-src twin of the Debian entry when apt has none. Does nothing for a package already
# unpacked. Needs root or passwordless sudo the first time, like `make deps`.
set -eu
dir=${1:-$(cd "$(dirname "$0")/../.." && pwd)/build-sources}
mkdir -p "$dir"

sudo_or_fail() {
  if [ "$(id -u)" = 0 ]; then sudo=""
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"
  else echo "impax: fetching $1's source needs root or sudo (apt-get source $1)" >&2; exit 1; fi
}

add_deb_src() { # once: a deb-src twin of the Debian entry
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
}

# fetch SOURCE_PACKAGE BINARY_PACKAGE PROBE: PROBE is a file the unpacked tree must hold
fetch() {
  version=$(dpkg-query -W -f='${source:Version}' "$2")
  upstream=$(echo "$version" | sed 's/^[0-9]*://; s/-[^-]*$//')
  for tree in "$dir"/*/; do [ -f "$tree$3" ] && return 0; done
  sudo_or_fail "$1"
  apt-get source --print-uris -qq "$1=$version" >/dev/null 2>&1 || add_deb_src
  # apt's sandbox user cannot write into a root-owned build tree; the download is a tarball
  (cd "$dir" && apt-get source --tar-only -qq "$1=$version" 2>&1 | grep -v 'unsandboxed' || true)
  tarball=$(ls "$dir/$1_$upstream.orig.tar."* 2>/dev/null | head -n 1)
  [ -n "$tarball" ] || { echo "impax: apt-get source $1=$version fetched no tarball into $dir" >&2; exit 1; }
  tar -xf "$tarball" -C "$dir"
  for tree in "$dir"/*/; do [ -f "$tree$3" ] && return 0; done
  echo "impax: $tarball holds no $3" >&2
  exit 1
}

fetch ode libode-dev ode/demo/demo_chain1.c
fetch pyode python3-pyode examples/tutorial3.py
