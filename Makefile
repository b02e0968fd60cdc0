# Two commands on a fresh machine with only python3 and pip:
#   make run   - serve NovaMart on 127.0.0.1 (bootstraps .venv first)
#   make test  - the whole test suite (bootstraps .venv first)
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-ray test-container lint format bench soak install train-smoke

$(STAMP): pyproject.toml uv.lock scripts/install.sh
	VENV=$(VENV) sh scripts/install.sh
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/novamart serve --web

# A browser is installed only with NOVAMART_INSTALL_BROWSER=1 (CI sets it); without one, the
# browser tests skip and the last line says so, with the command that installs one.
test: $(STAMP)
	$(PY) -m tests.browser.locate
	$(VENV)/bin/pytest -q -n 2 --dist loadfile; status=$$?; $(PY) -m tests.browser.locate --summary; exit $$status

# The image from the Dockerfile, built with Docker or podman and served three ways (minutes;
# not part of `make test`).
test-container: $(STAMP)
	$(PY) -m tests.container.run_image

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# The Ray tests: the optional extra novamart[ray] installed into the venv, then the actor pool
# and the SkyRL/verl adapters in a local 2-CPU cluster (CI runs it after `make test`, which
# skips them with the reason).
test-ray: $(STAMP)
	VENV=$(VENV) NOVAMART_INSTALL_FLAGS="--group dev --extra ray" sh scripts/install.sh
	NOVAMART_RAY=1 $(VENV)/bin/pytest -q tests/scale

bench: test-ray
	for script in bench/bench_*.py; do $(PY) $$script || exit 1; done

soak: $(STAMP)
	$(PY) bench/soak_kernel.py

# A trainer's venv (outside the tree: torch CPU, trl, NovaMart by pip) and 2 real GRPO steps.
train-smoke:
	sh scripts/train-smoke.sh
