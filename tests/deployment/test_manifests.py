"""The Kubernetes manifests (deploy/k8s/) are valid, pass the policy check, and give each process what
docker-compose.yml gives it: the same command, the same environment and the same health check. The compose file is
what tests/deployment/test_production_stack.py runs, so both deployments run what was tested."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from config.settings import Settings
from tests.deployment.compose import COMPOSE_FILE, MissingVariableError, raw_compose, services

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
KUBERNETES_VERSION = "1.30.0"
CHECKOV = ROOT / ".venv" / "policy" / "bin" / "checkov"
PROCESSES = ("api", "worker", "projector", "reactor", "beat")
# Where the two deployments differ on purpose, and why.
COMPOSE_ONLY = {
    # One machine keeps objects and checkpoint copies on the volume; Kubernetes has no disk every pod shares, so it
    # leaves APP_VAR_DIR unset and the production settings then require the S3 bucket.
    "APP_VAR_DIR",
}
FROM_THE_SECRET = {"DATABASE_URL", "REDIS_URL"}
# The footer's company block and the Japanese disclosure page's seller: the operator supplies them (required in
# production).
COMPANY_VARIABLES = (
    "COMPANY_NAME",
    "COMPANY_REPRESENTATIVE",
    "COMPANY_ADDRESS",
    "COMPANY_BUSINESS_NUMBER",
    "COMPANY_MAIL_ORDER_NUMBER",
    "COMPANY_PHONE",
    "COMPANY_EMAIL",
    "COMPANY_HOSTING_PROVIDER",
    "JP_SELLER_NAME",
    "JP_SELLER_ADDRESS",
    "JP_SELLER_PHONE",
    "JP_SELLER_RESPONSIBLE",
)  # compose names its own postgres and redis services
# Policy checks skipped, each with its reason.
CHECKOV_SKIPS = {
    "CKV_K8S_43": "the image is pinned per release by kustomization.yaml's images (a tag or a digest)",
    "CKV_K8S_35": "settings come from the environment (12-factor, config/settings.py), the secrets by secretKeyRef",
    "CKV_K8S_9": "worker, projector, reactor and beat serve no traffic (no Service): their check is the liveness probe",
}


def documents() -> list[tuple[str, dict[str, Any]]]:
    """Every Kubernetes resource in deploy/k8s/ (not kustomization.yaml), with its file's name."""
    found = []
    for path in sorted(K8S.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        found += [(path.name, document) for document in yaml.safe_load_all(path.read_text()) if document]
    return found


def deployment(name: str) -> dict[str, Any]:
    (found,) = [doc for _, doc in documents() if doc["kind"] == "Deployment" and doc["metadata"]["name"] == name]
    return found


def container(name: str) -> dict[str, Any]:
    (only,) = deployment(name)["spec"]["template"]["spec"]["containers"]
    return only


def of_kind(kind: str) -> dict[str, dict[str, Any]]:
    return {doc["metadata"]["name"]: doc for _, doc in documents() if doc["kind"] == kind}


def test_every_manifest_is_valid_against_the_kubernetes_schemas() -> None:
    for file, document in documents():
        try:
            kubernetes_validate.validate(document, KUBERNETES_VERSION, strict=True)
        except kubernetes_validate.ValidationError as error:
            pytest.fail(f"{file}: {document['kind']} {document['metadata']['name']}: {error.message}")
    listed = yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"]
    assert sorted(listed) == sorted({file for file, _ in documents()}), "kustomization.yaml lists every file"


def test_the_manifests_pass_the_policy_check_but_for_written_reasons() -> None:
    assert CHECKOV.exists(), "checkov is installed by `make test` (make policy-tool)"
    skips = ",".join(CHECKOV_SKIPS)
    run = [str(CHECKOV), "--directory", str(K8S), "--framework", "kubernetes", "--skip-check", skips, "--skip-download"]
    done = subprocess.run(
        [*run, "--output", "json", "--quiet", "--compact"], capture_output=True, text=True, timeout=300, check=False
    )
    report = json.loads(done.stdout or "{}")
    failed = report.get("results", {}).get("failed_checks", []) if isinstance(report, dict) else []
    assert failed == [], "\n".join(f"{f['check_id']} {f['check_name']}: {f['resource']}" for f in failed)
    assert done.returncode == 0, done.stderr[-2000:]


def test_each_process_runs_the_command_compose_runs() -> None:
    compose = {service.name: service for service in services(_every_operator_variable())}
    assert set(compose) == set(PROCESSES)
    for name in PROCESSES:
        assert container(name)["command"] == compose[name].command, name
        assert "args" not in container(name), name


def test_each_process_gets_the_environment_compose_gives_it() -> None:
    compose_env = raw_compose()["x-app"]["environment"]
    defaults = {name: field.default for name, field in _settings_by_variable().items()}
    for name in PROCESSES:
        given = {variable["name"]: variable for variable in container(name)["env"]}
        assert set(given) == set(compose_env) - COMPOSE_ONLY, name
        for variable, written in compose_env.items():
            if variable in COMPOSE_ONLY:
                continue
            source = given[variable]
            reference = next(iter(source.get("valueFrom", {}).values()), None)
            if variable in FROM_THE_SECRET:
                assert reference and source["valueFrom"].get("secretKeyRef"), variable
            elif "${" not in written:  # a value the deployment fixes
                assert source.get("value") == written, variable
            elif ":?" in written:  # the operator must supply it
                assert reference and not reference.get("optional"), variable
            else:  # the operator may supply it, else compose's default applies
                default = written.split(":-", 1)[1].rstrip("}")
                if "value" in source:
                    assert source["value"] == default, variable
                elif reference.get("optional"):
                    assert str(defaults[variable]) == default, f"{variable}: unset, the settings' default applies"


def test_each_process_is_checked_as_compose_checks_it() -> None:
    compose = {service.name: service for service in services(_every_operator_variable())}
    api = container("api")
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        path = api[probe]["httpGet"]["path"]
        assert f"127.0.0.1:8000{path}" in compose["api"].healthcheck[-1], probe
    for name in ("worker", "projector", "reactor", "beat"):
        kind, *test = compose[name].healthcheck
        expected = test if kind == "CMD" else ["sh", "-c", test[0]]
        assert container(name)["livenessProbe"]["exec"]["command"] == expected, name


def test_api_and_workers_scale_out_projectors_stand_by_and_beat_and_the_reactor_stay_single() -> None:
    autoscaled = {hpa["spec"]["scaleTargetRef"]["name"]: hpa for hpa in of_kind("HorizontalPodAutoscaler").values()}
    assert set(autoscaled) == {"api", "worker"}
    for hpa in autoscaled.values():
        assert hpa["spec"]["minReplicas"] >= 2
        [metric] = hpa["spec"]["metrics"]
        assert metric["resource"]["name"] == "cpu"
    assert deployment("projector")["spec"]["replicas"] == 2, "one runs every view, one stands by"
    for singleton in ("beat", "reactor"):
        spec = deployment(singleton)["spec"]
        assert (spec["replicas"], spec["strategy"]["type"]) == (1, "Recreate"), singleton
    budgets = {
        pdb["spec"]["selector"]["matchLabels"]["app.kubernetes.io/component"]
        for pdb in of_kind("PodDisruptionBudget").values()
    }
    assert budgets == {"api", "worker", "projector"}
    for name in PROCESSES:
        resources = container(name)["resources"]
        assert set(resources["requests"]) == set(resources["limits"]) == {"cpu", "memory"}, name


def test_no_deployment_file_lets_production_talk_to_the_sandbox() -> None:
    for path in [COMPOSE_FILE, *K8S.glob("*.yaml")]:
        assert "PORTONE_SANDBOX_IN_PRODUCTION" not in path.read_text(), path.name


def test_the_production_image_is_built_without_the_sandbox_and_runs_nothing_of_it() -> None:
    ignored = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()]
    assert "integrations/portone/sandbox" in ignored, "the image's build context leaves out the PortOne sandbox"
    for stand_in in ("integrations/stores", "integrations/app_store/standin.py", "integrations/google_play/standin.py"):
        assert stand_in in ignored, f"the image's build context leaves out the stores' stand-ins ({stand_in})"
    dockerfile = raw_compose()["x-app"]["build"]["dockerfile_inline"]
    assert "sandbox" not in dockerfile, "nothing copies the sandbox back in"
    for name, service in raw_compose()["services"].items():
        assert "sandbox" not in json.dumps(service.get("command", "")), name


def test_compose_refuses_to_start_without_the_secrets_and_the_public_address() -> None:
    for required in (
        "AUTH_SECRET",
        "ZENDESK_SECRET",
        "LICENCE_SIGNING_SECRET",
        "AUDIT_SIGNING_KEY",
        "APP_BASE_URL",
        *COMPANY_VARIABLES,
    ):
        supplied = {name: "x" for name in _every_operator_variable() if name != required}
        with pytest.raises(MissingVariableError, match=required):
            services(supplied)


def _budgets() -> list[dict[str, Any]]:
    return list(of_kind("PodDisruptionBudget").values())


def _every_operator_variable() -> dict[str, str]:
    """Values for the variables compose requires (the others keep their defaults)."""
    return {
        "AUTH_SECRET": "a",
        "ZENDESK_SECRET": "z",
        "LICENCE_SIGNING_SECRET": "l",
        "AUDIT_SIGNING_KEY": "k",
        "APP_BASE_URL": "https://shop",
        **{name: "x" for name in COMPANY_VARIABLES},
    }


def _settings_by_variable() -> dict[str, Any]:
    return {field.alias: field for field in Settings.model_fields.values() if field.alias}
