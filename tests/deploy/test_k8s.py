"""deploy/k8s/ is valid Kubernetes (checked offline against the API's schemas, strictly: an
unknown field fails) and keeps the promises the server's drain and probes rely on."""

import copy
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from novamart.client import pod_urls
from novamart.server.settings import ServerSettings

K8S = Path(__file__).resolve().parents[2] / "deploy" / "k8s"
VERSION = kubernetes_validate.latest_version()
IDLE_MIB, SESSION_MIB = 116, 0.31  # research/scale-out.md §3.4 (plateau: +31 MiB / 100)
PRESTOP_S, UVICORN_SHUTDOWN_S = 5, 5


def _resources() -> dict[str, dict]:
    found = {}
    for path in sorted(K8S.glob("*.yaml")):
        for document in yaml.safe_load_all(path.read_text()):
            found[f"{document['kind']}/{document['metadata']['name']}"] = document
    return found


RESOURCES = _resources()


def _env(container: dict) -> dict[str, str]:
    return {item["name"]: item["value"] for item in container["env"]}


def _mebibytes(quantity: str) -> float:
    return float(quantity.removesuffix("Mi")) if quantity.endswith("Mi") else float("nan")


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_every_resource_is_valid_kubernetes(name: str) -> None:
    kubernetes_validate.validate(RESOURCES[name], VERSION, strict=True)


def test_the_validator_refuses_an_unknown_field_and_a_wrong_type() -> None:
    """The check above can fail: a misspelt field and a string port are both refused."""
    misspelt = copy.deepcopy(RESOURCES["StatefulSet/novamart"])
    pod = misspelt["spec"]["template"]["spec"]
    pod["terminationGracePeriod"] = pod.pop("terminationGracePeriodSeconds")
    wrong_type = copy.deepcopy(RESOURCES["Service/novamart"])
    wrong_type["spec"]["ports"][0]["port"] = "eight thousand"
    for broken in (misspelt, wrong_type):
        with pytest.raises(kubernetes_validate.ValidationError):
            kubernetes_validate.validate(broken, VERSION, strict=True)


def test_the_statefulset_serves_single_process_pods_that_drain_in_time() -> None:
    stateful = RESOURCES["StatefulSet/novamart"]
    pod = stateful["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    settings = ServerSettings.from_environ(_env(container))
    assert settings.workers == 1 and settings.host == "0.0.0.0"
    assert container["lifecycle"]["preStop"]["exec"]["command"] == ["/bin/sleep", str(PRESTOP_S)]
    grace = pod["terminationGracePeriodSeconds"]
    assert grace > PRESTOP_S + settings.drain_seconds + UVICORN_SHUTDOWN_S
    assert container["readinessProbe"]["httpGet"]["path"] == "/ready"
    assert container["livenessProbe"]["httpGet"]["path"] == "/health"
    assert pod["securityContext"]["runAsUser"] == 65532
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    tmp = next(v for v in pod["volumes"] if "emptyDir" in v)
    assert {"name": tmp["name"], "mountPath": "/tmp"} in container["volumeMounts"]
    sessions = settings.max_concurrent_envs
    needed = IDLE_MIB + sessions * SESSION_MIB
    assert _mebibytes(container["resources"]["requests"]["memory"]) >= needed
    assert _mebibytes(container["resources"]["limits"]["memory"]) >= 2 * needed


def test_the_services_and_the_budget_select_the_pods() -> None:
    stateful = RESOURCES["StatefulSet/novamart"]
    labels = stateful["spec"]["template"]["metadata"]["labels"]
    headless = RESOURCES[f"Service/{stateful['spec']['serviceName']}"]
    assert headless["spec"]["clusterIP"] == "None"
    for name in ("Service/novamart", "Service/novamart-pods"):
        assert RESOURCES[name]["spec"]["selector"].items() <= labels.items()
    budget = RESOURCES["PodDisruptionBudget/novamart"]["spec"]
    assert budget["selector"]["matchLabels"].items() <= labels.items()
    assert budget["maxUnavailable"] == 1


def test_the_sharding_recipe_names_the_pods_of_these_manifests() -> None:
    stateful = RESOURCES["StatefulSet/novamart"]
    (container,) = stateful["spec"]["template"]["spec"]["containers"]
    replicas, port = stateful["spec"]["replicas"], container["ports"][0]["containerPort"]
    assert pod_urls(replicas, namespace="rl") == [
        f"http://{stateful['metadata']['name']}-{i}.{stateful['spec']['serviceName']}.rl.svc:{port}"
        for i in range(replicas)
    ]
