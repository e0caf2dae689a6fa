#!/usr/bin/env bash
# As root, Switchboard starts stdio servers as an unprivileged user (SWITCHBOARD_STDIO_USER, nobody):
# the demo servers and the test fixtures live in this checkout, so that user must be able to reach
# it. A clone under /root (0700) is not: give its parent folders the search bit (o+x: enter, not
# list), as the PostgreSQL recipe does for its data folder. Nothing to do for an ordinary user.
set -euo pipefail
[[ $(id -u) -eq 0 ]] || exit 0
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
while [[ $dir != / ]]; do
  if [[ $(( $(stat -c '%a' "$dir") % 10 & 1 )) -eq 0 ]]; then
    echo "stdio-user: chmod o+x $dir (so stdio servers running as nobody can reach the checkout)"
    chmod o+x "$dir"
  fi
  dir=$(dirname "$dir")
done
