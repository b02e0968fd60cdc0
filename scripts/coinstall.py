"""Read what pip said about installing NovaMart into a trainer's environment.

``beside-trl REPORT``: ``pip install --dry-run --report REPORT -e .`` in a venv holding
trl==1.16.0; fails if pip would change the version of any package already installed (a
downgrade, or an upgrade that TRL did not ask for).
``verifiers LOG``: the output of ``pip install --dry-run verifiers==0.4.0 -e .``; prints the
conflict pip found (or that there was none).
"""

from __future__ import annotations

import json
import re
import sys
from importlib import metadata
from pathlib import Path


def beside_trl(report_path: Path) -> int:
    report = json.loads(report_path.read_text())
    installed = {d.metadata["Name"].lower(): d.version for d in metadata.distributions()}
    changed, added = [], []
    for item in report["install"]:
        name, version = item["metadata"]["name"].lower(), item["metadata"]["version"]
        if name == "openenv-novamart":
            continue
        if name in installed and installed[name] != version:
            changed.append(f"{name} {installed[name]} -> {version}")
        elif name not in installed:
            added.append(f"{name}=={version}")
    print(
        f"NovaMart beside trl=={installed.get('trl')}: adds {len(added)} packages, changes none"
        if not changed
        else f"NovaMart beside trl: would change {', '.join(changed)}"
    )
    return 1 if changed else 0


def verifiers(log_path: Path) -> int:
    text = log_path.read_text()
    reasons = re.findall(r"^\s*(\S+) \S+ (depends on .+)$", text, flags=re.MULTILINE)
    if "ResolutionImpossible" in text or "conflict" in text.lower():
        print("verifiers==0.4.0 beside NovaMart: conflicts")
        for package, needs in dict.fromkeys(reasons):  # one line per package, any version
            print(f"  {package} {needs}")
    else:
        print("verifiers==0.4.0 beside NovaMart: resolves")
    return 0


def main() -> int:
    command, path = sys.argv[1], Path(sys.argv[2])
    return {"beside-trl": beside_trl, "verifiers": verifiers}[command](path)


if __name__ == "__main__":
    sys.exit(main())
