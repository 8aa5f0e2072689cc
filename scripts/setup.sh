#!/usr/bin/env bash
# Set up Arbiter in ./.venv: idempotent, and from scratch on a fresh machine (Python 3.11+, pip, a C compiler
# are enough). Re-runs only when pyproject.toml or this script changed since the last successful setup.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
VENV=.venv
STAMP=$VENV/.arbiter-setup
want=$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -d' ' -f1)

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] && [ -x "$VENV/bin/arbiter" ]; then
  exit 0
fi

echo "setting up Arbiter in $VENV (a few minutes the first time) ..."
if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
fi
pip_() { "$VENV/bin/python" -m pip --disable-pip-version-check -q "$@"; }
pip_ install --upgrade pip
# opencv-python and opencv-python-headless both ship cv2; keep only the one the project names.
if "$VENV/bin/python" -m pip show opencv-python-headless >/dev/null 2>&1; then
  pip_ uninstall -y opencv-python-headless
  pip_ install --force-reinstall --no-deps "opencv-python>=4.9"
fi
# The dashboard's browser test drives Debian's Chromium through Playwright (never Playwright's own browser
# download). Install Chromium where it is missing and apt is there (as root, or sudo without a password).
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then
  as_root=""
  if [ "$(id -u)" -ne 0 ]; then as_root="sudo -n"; fi
  if ! { $as_root apt-get update -qq && $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }; then
    echo "warning: could not install chromium; the dashboard's browser test will be skipped" >&2
  fi
fi
pip_ install -e ".[physics,dev,cluster]"
# pooltool-billiards pins a development build of panda3d that no registry serves; its real needs are in
# the `physics` extra above (with the released panda3d 1.10.16), so it goes in without its own pins.
pip_ install --no-deps "pooltool-billiards==0.6.0"
# The first pooltool simulation compiles its physics with numba (about a minute) and caches it: do it now,
# not inside the first test.
"$VENV/bin/python" -m datasets.billiards.warmup
echo "$want" > "$STAMP"
echo "setup done: $VENV"
