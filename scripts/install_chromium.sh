#!/usr/bin/env bash
# The browser tests use Debian's Chromium (a test tool's own browser download fails on this kind of
# machine). Installs it from Debian's archive when it is missing.
set -eu
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Chromium is missing: run 'sudo apt-get install -y chromium' (browser tests need /usr/bin/chromium)."
  exit 1
fi
echo "Installing Debian's chromium for the browser tests"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || true
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
