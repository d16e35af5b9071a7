#!/bin/sh
# Installs the Debian package chromium when it is missing, so that the
# report package's HTML test can render report.html headless. Idempotent:
# does nothing (and needs no network) when chromium is already installed.
set -eu

if command -v chromium >/dev/null 2>&1; then
	echo "install-chromium: $(command -v chromium) already installed"
	exit 0
fi

# apt-get needs root; use sudo when it exists and we are not root.
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO="sudo"
	else
		echo "install-chromium: need root (or sudo) to apt-get install chromium" >&2
		exit 1
	fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium fonts-liberation
command -v chromium >/dev/null 2>&1 || {
	echo "install-chromium: apt-get finished but chromium is still not on PATH" >&2
	exit 1
}
echo "install-chromium: installed $(command -v chromium)"
