#!/usr/bin/env bash
# Debian packages the tests need beyond Python: the PostgreSQL client (pg_isready), Chromium's
# headless shell (the browser engine without the desktop browser around it: about half the CPU
# of headless Chromium for the same pages) and a Chinese font for the browser tests, Node.js/npm
# for the web client's type check.  Installs only what is missing (apt-get, as root or through
# sudo), then makes sure PostgreSQL is up.
set -euo pipefail

need=()
command -v pg_isready >/dev/null || need+=(postgresql-client)
[ -x /usr/bin/chromium-headless-shell ] || need+=(chromium-headless-shell)
fc-list 2>/dev/null | grep -qi 'wenquanyi\|wqy' || need+=(fonts-wqy-microhei fontconfig)
command -v npm >/dev/null || need+=(nodejs npm)
if [ ${#need[@]} -gt 0 ]; then
  echo "system-deps: installing ${need[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi

# The server's tests use the real PostgreSQL on 127.0.0.1:5432 (trust auth); start it if stopped.
if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  if [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start || true
    for _ in $(seq 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
  fi
  pg_isready -h 127.0.0.1 -p 5432 -q || {
    echo "system-deps: no PostgreSQL on 127.0.0.1:5432 — the server tests need one (trust auth)" >&2
    exit 1
  }
fi
