#!/usr/bin/env sh
# `make train-smoke`: a trainer's install, then 2 real TRL GRPO steps on NovaMart (CPU).
# Its own virtual environment ($TRAIN_VENV, default .venv-train), installed with pip the way a
# researcher would: torch first (`pip install torch==2.13.0` takes the CPU wheel on this
# machine's disk; uv would fetch a ~3 GB CUDA build), then trl==1.16.0, then NovaMart, whose
# resolution is checked first to downgrade nothing TRL brought (scripts/coinstall.py).
set -eu
TRAIN_VENV="${TRAIN_VENV:-.venv-train}"
PIP="$TRAIN_VENV/bin/pip"
QUIET="--quiet --disable-pip-version-check"

started=$(date +%s)
rm -rf "$TRAIN_VENV"  # fresh, so the check below sees exactly what TRL brought
python3 -m venv "$TRAIN_VENV"
# shellcheck disable=SC2086
$PIP install $QUIET "torch==2.13.0"
# shellcheck disable=SC2086
$PIP install $QUIET "trl==1.16.0"
mkdir -p artifacts
# shellcheck disable=SC2086
$PIP install $QUIET --dry-run --report artifacts/novamart-beside-trl.json -e .
"$TRAIN_VENV/bin/python" scripts/coinstall.py beside-trl artifacts/novamart-beside-trl.json
# shellcheck disable=SC2086
$PIP install $QUIET -e .
echo "train-smoke: the trainer's venv installed in $(( $(date +%s) - started )) s ($(du -sh "$TRAIN_VENV" | cut -f1))"
# verifiers 0.4 in the same venv: expected to conflict; say with what. fastmcp stays at the
# version installed (what openenv resolved), or pip backtracks through every fastmcp 3.x first.
FASTMCP=$("$TRAIN_VENV/bin/python" -c "import importlib.metadata as m; print(m.version('fastmcp'))")
$PIP install --disable-pip-version-check --dry-run "verifiers==0.4.0" -e . "fastmcp==$FASTMCP" \
    >artifacts/verifiers-conflict.log 2>&1 || true
"$TRAIN_VENV/bin/python" scripts/coinstall.py verifiers artifacts/verifiers-conflict.log
TRL_EXPERIMENTAL_SILENCE=1 HF_HUB_OFFLINE=1 "$TRAIN_VENV/bin/python" scripts/train_smoke.py
