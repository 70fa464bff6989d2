#!/usr/bin/env bash
# Installs Debian's chromium for the headless test of the live-session report
# (tests/unit/session, SessionReportBrowser; docs/session.md#report). Not part of
# install_deps.sh: it is about 300 MB installed, and the test skips with the reason without it.
# Safe to run repeatedly.
set -euo pipefail
if command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "install_chromium: apt-get not found; install chromium yourself" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
