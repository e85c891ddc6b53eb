#!/usr/bin/env bash
# Makes a release archive, dist/macmd-<version>-<os>-<arch>.tar.gz, holding one folder of the
# same name: bin/macmd, Scripts/install.sh, editors/, docs/, LICENSE and README.md.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: Scripts/package.sh [options]

Builds macmd (swift build -c release) and packs a release archive
macmd-<version>-<os>-<arch>.tar.gz (os: linux or macos; arch from uname -m).

Options:
  --binary PATH    Pack this binary instead of building .build/release/macmd
  --no-build       Pack .build/release/macmd as it is
  --output DIR     Write the archive into DIR (default: dist/ in the repository)
  -h, --help       Show this help
USAGE
}

root=$(cd "$(dirname "$0")/.." && pwd)
output="$root/dist"
build=1
binary=""

while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --no-build) build=0 ;;
        --binary) [ $# -ge 2 ] || { echo "package.sh: --binary needs a PATH" >&2; exit 2; }
                  binary=$2; shift ;;
        --binary=*) binary=${1#--binary=} ;;
        --output) [ $# -ge 2 ] || { echo "package.sh: --output needs a DIR" >&2; exit 2; }
                  output=$2; shift ;;
        --output=*) output=${1#--output=} ;;
        *) echo "package.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

if [ -z "$binary" ]; then
    if [ "$build" = 1 ]; then
        echo "Building: swift build -c release"
        (cd "$root" && swift build -c release)
    fi
    binary="$root/.build/release/macmd"
fi
if [ ! -x "$binary" ]; then
    echo "package.sh: no macmd binary at $binary (build it with 'swift build -c release')" >&2
    exit 1
fi

# The version is the one the command line prints (MacMDCommandLine.version).
version=$(sed -n 's/^ *static let version = "\(.*\)"$/\1/p' "$root/Sources/macmd/MacMDCommandLine.swift")
[ -n "$version" ] || { echo "package.sh: cannot find the version in Sources/macmd/MacMDCommandLine.swift" >&2; exit 1; }
case $(uname -s) in
    Linux) os=linux ;;
    Darwin) os=macos ;;
    *) os=$(uname -s | tr '[:upper:]' '[:lower:]') ;;
esac
case $(uname -m) in
    aarch64|arm64) arch=arm64 ;;
    amd64|x86_64) arch=x86_64 ;;
    *) arch=$(uname -m) ;;
esac
name="macmd-$version-$os-$arch"

staging=$(mktemp -d "${TMPDIR:-/tmp}/macmd-package.XXXXXX")
trap 'rm -rf "$staging"' EXIT
folder="$staging/$name"
mkdir -p "$folder/bin" "$folder/Scripts"
cp "$binary" "$folder/bin/macmd"
chmod 755 "$folder/bin/macmd"
cp "$root/Scripts/install.sh" "$folder/Scripts/"
cp -R "$root/editors" "$root/docs" "$folder/"
cp "$root/LICENSE" "$root/README.md" "$folder/"
# Editor build products have no place in the archive.
rm -rf "$folder/editors/vscode/node_modules" "$folder/editors/vscode/out"
find "$folder/editors" -name '*.vsix' -exec rm -f {} +

mkdir -p "$output"
archive="$(cd "$output" && pwd)/$name.tar.gz"
# COPYFILE_DISABLE keeps macOS tar from adding ._ resource-fork files.
COPYFILE_DISABLE=1 tar -czf "$archive.tmp" -C "$staging" "$name"
mv -f "$archive.tmp" "$archive"
echo "Packed $archive ($("$folder/bin/macmd" --version))"
