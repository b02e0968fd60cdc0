"""Read what pip said about installing NovaMart into a trainer's environment.

``beside-trl REPORT``: ``pip install --dry-run --report REPORT -e .`` in a venv holding
trl==1.16.0; fails if pip would change the version of trl, torch or any package either of them
requires directly, or move any package to a version an installed package does not accept. A
leaf further down that a NovaMart dependency caps (tomlkit, which trl's ``kernels`` takes at
any version >= 0.13.3 and gradio caps below 0.15) may move within every requirement on it; the
line says which, and who caps it.
``verifiers LOG``: the output of ``pip install --dry-run verifiers==0.4.0 -e .``; prints the
conflict pip found (or that there was none).
"""

from __future__ import annotations

import json
import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

STACK = ("trl", "torch")
"""The trainer's own packages: neither they nor what they require directly may move."""


def _requirements(requires: list[str] | None) -> list[Requirement]:
    """The unconditional requirements and those whose markers hold here (no extras)."""
    found = []
    for line in requires or []:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            found.append(requirement)
    return found


def _stack() -> set[str]:
    names = {canonicalize_name(n) for n in STACK}
    for name in STACK:
        names |= {canonicalize_name(r.name) for r in _requirements(metadata.requires(name))}
    return names


def _accepted(name: str, version: str) -> bool:
    """Whether every installed package that requires ``name`` accepts ``version``."""
    return all(
        r.specifier.contains(version, prereleases=True)
        for d in metadata.distributions()
        for r in _requirements(d.requires)
        if canonicalize_name(r.name) == name
    )


def _capped_by(report: dict, name: str, installed: str) -> str:
    """Which package of the planned install excludes the installed version of ``name``."""
    for item in report["install"]:
        for line in item["metadata"].get("requires_dist") or []:
            requirement = Requirement(line)
            if canonicalize_name(requirement.name) == name and not requirement.specifier.contains(
                installed, prereleases=True
            ):
                return f"{item['metadata']['name']} {item['metadata']['version']} needs {line}"
    return "no requirement found"


def beside_trl(report_path: Path) -> int:
    report = json.loads(report_path.read_text())
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}
    stack = _stack()
    refused, moved, added = [], [], []
    for item in report["install"]:
        name, version = canonicalize_name(item["metadata"]["name"]), item["metadata"]["version"]
        if name == "openenv-novamart":
            continue
        if name not in installed:
            added.append(f"{name}=={version}")
        elif installed[name] != version:
            change = f"{name} {installed[name]} -> {version}"
            if name in stack or not _accepted(name, version):
                refused.append(change)
            else:
                moved.append(f"{change} ({_capped_by(report, name, installed[name])})")
    if refused:
        print(f"NovaMart beside trl: would change {', '.join(refused)}")
        return 1
    kept = f"adds {len(added)} packages, changes nothing of trl's or torch's own"
    print(f"NovaMart beside trl=={installed.get('trl')}: {kept}")
    for change in moved:
        print(f"  moves a leaf within every installed package's requirements: {change}")
    return 0


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
