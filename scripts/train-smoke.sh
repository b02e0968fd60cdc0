#!/usr/bin/env sh
# `make train-smoke`: a trainer's install, then 2 real TRL GRPO steps on NovaMart (CPU).
# Its own virtual environment ($TRAIN_VENV), outside the checkout so that neither the image
# (.dockerignore) nor `openenv validate` (which refuses a tree with symlinks) sees it; installed
# with pip the way a researcher would: the CPU build of torch first (this machine's local wheel
# where pip's find-links has it, else the CPU wheel index TORCH_CPU_INDEX names, by default
# PyTorch's; a plain `torch` resolves the CUDA build and its nvidia-* packages, several GB),
# then trl==1.16.0, then NovaMart, whose resolution is checked first to downgrade nothing TRL
# brought (scripts/coinstall.py). Its output says which source torch came from.
set -eu
CHECKOUT_ID=$(pwd | cksum | cut -d' ' -f1)  # one venv per checkout
TRAIN_VENV="${TRAIN_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/novamart/venv-train-$CHECKOUT_ID}"
TORCH="torch==2.13.0+cpu"
TORCH_CPU_INDEX="${TORCH_CPU_INDEX:-https://download.pytorch.org/whl/cpu}"
PIP="$TRAIN_VENV/bin/pip"
QUIET="--quiet --disable-pip-version-check"

started=$(date +%s)
if [ -f .venv-train/pyvenv.cfg ]; then  # where earlier versions of this script put it
    echo "train-smoke: removing the old in-tree .venv-train (it broke openenv validate)"
    rm -rf .venv-train
fi
echo "train-smoke: the trainer's venv in $TRAIN_VENV (a few minutes on a first run)"
rm -rf "$TRAIN_VENV"  # fresh, so the check below sees exactly what TRL brought
mkdir -p "$(dirname "$TRAIN_VENV")"
python3 -m venv "$TRAIN_VENV"
# shellcheck disable=SC2086
if $PIP install $QUIET --dry-run --no-deps --no-index "$TORCH" >/dev/null 2>&1; then
    FOUND_IN=$($PIP config get global.find-links 2>/dev/null || echo "pip's find-links")
    TORCH_FROM="this machine's local wheels ($FOUND_IN)"
    $PIP install $QUIET "$TORCH"
else
    TORCH_FROM="the CPU wheel index $TORCH_CPU_INDEX (TORCH_CPU_INDEX; PyTorch's by default)"
    $PIP install $QUIET --index-url "$TORCH_CPU_INDEX" "$TORCH"
fi
"$TRAIN_VENV/bin/python" -W ignore -c "import torch, sys; sys.exit(torch.version.cuda is not None)" \
    || { echo "train-smoke: torch is not the CPU build" >&2; exit 1; }
echo "train-smoke: $TORCH, the CPU build, from $TORCH_FROM"
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
