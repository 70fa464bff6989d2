#!/usr/bin/env bash
# Installs frost's git hooks (scripts/hooks: the commit-message check) into this checkout's
# .git/hooks, leaving any hook of the same name that is already there alone. Does nothing
# outside a git checkout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
hooks=$(git -C "$root" rev-parse --git-path hooks 2>/dev/null) || exit 0
case $hooks in /*) ;; *) hooks=$root/$hooks ;; esac
mkdir -p "$hooks"
for h in "$root"/scripts/hooks/*; do
  name=$(basename "$h")
  [ -e "$hooks/$name" ] || ln -s "$h" "$hooks/$name"
done
