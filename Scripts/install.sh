#!/usr/bin/env bash
# Installs macmd: builds it (swift build -c release), copies the binary to PREFIX/bin/macmd and,
# with --nvim, the Neovim plugin where Neovim loads it. Running it again installs over the last.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: Scripts/install.sh [options] [PREFIX]

Builds macmd (swift build -c release) and installs it as PREFIX/bin/macmd.
PREFIX defaults to ~/.local. Run from a release archive, it installs the archive's bin/macmd.

Options:
  --nvim           Also install the Neovim plugin (editors/nvim) into
                   ${XDG_DATA_HOME:-~/.local/share}/nvim/site/pack/macmd/start/macmd
  --no-build       Do not build; install the binary already built (or --binary)
  --binary PATH    Install this binary instead of .build/release/macmd (implies --no-build;
                   $MACMD_BIN does the same)
  -h, --help       Show this help
USAGE
}

root=$(cd "$(dirname "$0")/.." && pwd)
prefix="$HOME/.local"
build=1
nvim=0
binary="${MACMD_BIN:-}"

while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --nvim) nvim=1 ;;
        --no-build) build=0 ;;
        --binary) [ $# -ge 2 ] || { echo "install.sh: --binary needs a PATH" >&2; exit 2; }
                  binary=$2; shift ;;
        --binary=*) binary=${1#--binary=} ;;
        -*) echo "install.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
        *) prefix=$1 ;;
    esac
    shift
done

if [ -z "$binary" ] && [ ! -f "$root/Package.swift" ] && [ -x "$root/bin/macmd" ]; then
    # Run from a release archive (Scripts/package.sh): its binary is built already.
    binary="$root/bin/macmd"
fi
if [ -n "$binary" ]; then
    build=0
elif [ "$build" = 1 ]; then
    echo "Building: swift build -c release"
    (cd "$root" && swift build -c release)
    binary="$root/.build/release/macmd"
else
    binary="$root/.build/release/macmd"
fi
if [ ! -x "$binary" ]; then
    echo "install.sh: no macmd binary at $binary (build it with 'swift build -c release')" >&2
    exit 1
fi

bin="$prefix/bin"
mkdir -p "$bin"
# Copy beside the target and rename, so a running macmd is never overwritten in place.
cp "$binary" "$bin/.macmd.new"
chmod 755 "$bin/.macmd.new"
mv -f "$bin/.macmd.new" "$bin/macmd"
echo "Installed $bin/macmd ($("$bin/macmd" --version))"

if [ "$nvim" = 1 ]; then
    plugin="${XDG_DATA_HOME:-$HOME/.local/share}/nvim/site/pack/macmd/start/macmd"
    rm -rf "$plugin"
    mkdir -p "$plugin"
    cp -R "$root/editors/nvim/." "$plugin/"
    echo "Installed the Neovim plugin in $plugin"
    echo "  Neovim loads it at start; add require('macmd').setup() to init.lua (see editors/nvim/README.md)"
fi

case ":$PATH:" in
    *":$bin:"*) ;;
    *) echo "Note: $bin is not on PATH; add it, e.g. in ~/.profile: export PATH=\"$bin:\$PATH\"" ;;
esac
