# Sourced by scripts/run and scripts/test: create .venv and install requirements when they change.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-python3.11}"
command -v "$PY" >/dev/null 2>&1 || PY=python3
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# REQUIREMENTS: the file to install (scripts/test sets requirements-dev.txt, which includes requirements.txt)
reqs="${REQUIREMENTS:-requirements.txt}"
stamp=".venv/.$(basename "$reqs").sha"
want="$(cat requirements.txt "$reqs" | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$reqs"
  echo "$want" > "$stamp"
fi
export FLASK_APP=wsgi
# the translations' compiled catalogs (tournament/translations/*/LC_MESSAGES/messages.mo, not committed)
.venv/bin/python scripts/translations.py compile >/dev/null
