# Two commands on a fresh machine with only python3 and pip:
#   make run   - serve NovaMart (bootstraps .venv first)
#   make test  - the whole test suite (bootstraps .venv first)
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint format bench soak install train-smoke

$(STAMP): pyproject.toml uv.lock scripts/install.sh
	VENV=$(VENV) sh scripts/install.sh
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/novamart serve --web

test: $(STAMP)
	sh scripts/install-browser.sh
	$(VENV)/bin/pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(STAMP)
	for script in bench/bench_*.py; do $(PY) $$script || exit 1; done

soak: $(STAMP)
	$(PY) bench/soak_kernel.py

# A trainer's venv (.venv-train: torch CPU, trl, NovaMart by pip) and 2 real GRPO steps.
train-smoke:
	sh scripts/train-smoke.sh
