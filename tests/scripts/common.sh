# Sourced by the scripts here after their usage line (`. "$(dirname "$0")/common.sh" "$1"`):
# the binary under test as an absolute path, a scratch directory removed on exit, a C locale
# without colour, and the failure count that the script's last line turns into its status.
binary=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export NO_COLOR=1 LC_ALL=C
failures=0
cases=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
