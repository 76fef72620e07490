"""template.yaml: lints clean, transforms offline, and gives functions only what they may use."""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cfnlint.api import lint, lint_file
from cfnlint.decode import decode
from samtranslator.translator.transform import transform

from certiq.adapters.aws.tables import attribute_definitions, global_secondary_indexes, key_schema
from certiq.config import Settings, env_names
from certiq.deps import Deps
from certiq.steps import STEP_NAMES, step_dependencies

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"

# The product's functions: functions/<name>/app.py, logical id <CamelName>Function.
FUNCTIONS = [*STEP_NAMES, "ingest", "api", "recheck"]
# The functions that run no single step of the state machine.
NOT_STEPS = {"ingest", "api", "recheck"}

# CloudWatch Logs actions Step Functions needs for vended log delivery. They do not support
# resource-level permissions, so AWS documents "Resource": "*" for them; nothing else may use it.
LOG_DELIVERY_ACTIONS = {
    "logs:CreateLogDelivery",
    "logs:GetLogDelivery",
    "logs:UpdateLogDelivery",
    "logs:DeleteLogDelivery",
    "logs:ListLogDeliveries",
    "logs:PutResourcePolicy",
    "logs:DescribeResourcePolicies",
    "logs:DescribeLogGroups",
}
# Textract's text detection has no resource types either: the object it reads is checked
# against the caller's S3 permissions instead.
TEXTRACT_ACTIONS = {"textract:StartDocumentTextDetection", "textract:GetDocumentTextDetection"}
UNSCOPED_ACTIONS = LOG_DELIVERY_ACTIONS | TEXTRACT_ACTIONS
# What SAM itself attaches (basic execution role, X-Ray for Tracing: Active / Enabled).
ALLOWED_MANAGED_POLICIES = {
    "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
    "arn:aws:iam::aws:policy/AWSXrayWriteOnlyAccess",
    # For an SQS event source (the recheck queue): receive, delete and read the attributes of
    # messages, what the event source mapping polls with.
    "arn:aws:iam::aws:policy/service-role/AWSLambdaSQSQueueExecutionRole",
}


def logical_id(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) + "Function"


def load_template() -> dict[str, Any]:
    """template.yaml as plain JSON data, short-form intrinsics (!Ref, !Sub...) expanded."""
    template, matches = decode(TEMPLATE)
    assert not matches, [str(m) for m in matches]
    return json.loads(json.dumps(template))


def package(template: dict[str, Any]) -> dict[str, Any]:
    """What `sam package` does: local CodeUri/ContentUri/DefinitionUri become S3 locations."""
    packaged = copy.deepcopy(template)
    for resource in packaged["Resources"].values():
        properties = resource.get("Properties", {})
        for key in ("CodeUri", "ContentUri", "DefinitionUri"):
            if isinstance(properties.get(key), str):
                properties[key] = "s3://artifacts/" + properties[key].strip("/")
    return packaged


class NoManagedPolicies:
    """Offline stand-in for samtranslator's ManagedPolicyLoader (which calls IAM).

    The template names no AWS managed policy; SAM resolves the ones it adds itself. Should
    someone add one by name, the transform fails here instead of granting it unseen.
    """

    def load(self) -> dict[str, str]:
        return {}


def sam_transform(template: dict[str, Any]) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("AWS_DEFAULT_REGION", "us-east-1")
        return transform(package(template), {}, NoManagedPolicies())  # type: ignore[arg-type]


def allowed_env_names() -> set[str]:
    return env_names()


def policy_documents(resources: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(where, document) for every IAM policy in the transformed template, both Fn::If branches."""

    def branches(node: Any) -> Iterator[Any]:
        if isinstance(node, dict) and "Fn::If" in node:
            for branch in node["Fn::If"][1:]:
                yield from branches(branch)
        elif node != {"Ref": "AWS::NoValue"}:
            yield node

    for rid, resource in resources.items():
        properties = resource.get("Properties", {})
        if resource["Type"] == "AWS::IAM::Role":
            for entry in properties.get("Policies", []):
                for policy in branches(entry):
                    yield f"{rid}/{policy['PolicyName']}", policy["PolicyDocument"]
        elif resource["Type"] in ("AWS::IAM::Policy", "AWS::IAM::ManagedPolicy"):
            yield rid, properties["PolicyDocument"]


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.fixture(scope="module")
def transformed(template: dict[str, Any]) -> dict[str, Any]:
    return sam_transform(template)


def test_cfn_lint_reports_no_errors_or_warnings() -> None:
    # GIVEN the SAM template
    # WHEN cfn-lint checks it (ignores, if any, come from the template's own Metadata)
    matches = lint_file(TEMPLATE)
    # THEN it reports neither errors nor warnings
    problems = [str(m) for m in matches if m.rule.id[0] in "EW"]
    assert problems == []


def test_sam_transform_yields_state_machine_every_function_and_the_layer(
    transformed: dict[str, Any],
) -> None:
    # GIVEN the template transformed offline, as CloudFormation would on deploy
    resources = transformed["Resources"]
    types = {rid: resource["Type"] for rid, resource in resources.items()}
    # THEN every serverless resource became plain CloudFormation
    assert not [t for t in types.values() if t.startswith("AWS::Serverless::")]
    # AND the state machine, each function and the layer are there
    assert types.get("AnswerStateMachine") == "AWS::StepFunctions::StateMachine"
    for name in FUNCTIONS:
        assert types.get(logical_id(name)) == "AWS::Lambda::Function", name
    layers = [rid for rid, t in types.items() if t == "AWS::Lambda::LayerVersion"]
    assert len(layers) == 1 and layers[0].startswith("CertiqLayer")


def test_transformed_template_lints_clean_so_has_no_dependency_cycle(
    transformed: dict[str, Any],
) -> None:
    # GIVEN the transformed template: only there do SAM's S3 notification wiring (bucket
    # DependsOn the Lambda permission, which needs the function) and every Ref meet
    # WHEN cfn-lint checks it
    matches = lint(json.dumps(transformed))
    # THEN nothing is wrong, in particular no circular dependency (E3004)
    assert [str(m) for m in matches if m.rule.id[0] in "EW"] == []


def test_template_declares_exactly_the_product_functions(template: dict[str, Any]) -> None:
    # GIVEN the template's functions
    declared = {
        rid
        for rid, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
    }
    # THEN they are the product's functions, nothing more, nothing less
    assert declared == {logical_id(name) for name in FUNCTIONS}


@pytest.mark.parametrize("name", FUNCTIONS)
def test_function_follows_the_packaging_conventions(
    name: str, template: dict[str, Any], transformed: dict[str, Any]
) -> None:
    # GIVEN a function as declared and as deployed (Globals merged in)
    declared = template["Resources"][logical_id(name)]["Properties"]
    deployed = transformed["Resources"][logical_id(name)]["Properties"]
    # THEN its code is functions/<name>/ and it runs app.lambda_handler on Python 3.12 arm64
    assert declared["CodeUri"] == f"functions/{name}/"
    assert deployed["Handler"] == "app.lambda_handler"
    assert deployed["Runtime"] == "python3.12"
    assert deployed["Architectures"] == ["arm64"]
    assert deployed["TracingConfig"] == {"Mode": "Active"}
    # AND it loads the certiq layer
    assert [ref["Ref"] for ref in deployed["Layers"]] == [
        rid
        for rid, resource in transformed["Resources"].items()
        if resource["Type"] == "AWS::Lambda::LayerVersion"
    ]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_function_code_directory_has_a_lambda_handler(name: str, template: dict[str, Any]) -> None:
    # GIVEN the function's code directory
    code_dir = ROOT / template["Resources"][logical_id(name)]["Properties"]["CodeUri"]
    app = code_dir / "app.py"
    # THEN it holds app.py
    assert app.is_file(), f"{app.relative_to(ROOT)} is missing"
    # AND app.py defines lambda_handler(event, context) at module level
    module = ast.parse(app.read_text(encoding="utf-8"))
    handlers = [
        node
        for node in module.body
        if (isinstance(node, ast.FunctionDef) and node.name == "lambda_handler")
        or (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "lambda_handler" for t in node.targets)
        )
    ]
    assert handlers, f"{app.relative_to(ROOT)} defines no lambda_handler"
    if isinstance(handlers[-1], ast.FunctionDef):
        assert len(handlers[-1].args.args) == 2


def test_settings_walk_names_leaf_variables() -> None:
    # GIVEN the variables derived from certiq.config.Settings
    names = allowed_env_names()
    # THEN top-level fields and nested group fields are named as pydantic-settings reads them
    assert {"CERTIQ_RUNTIME", "CERTIQ_AWS__DOCUMENTS_TABLE", "CERTIQ_RETRIEVAL__TOP_K"} <= names
    # AND a group is not itself a leaf variable
    assert "CERTIQ_AWS" not in names


@pytest.mark.parametrize("name", FUNCTIONS)
def test_function_environment_only_names_settings_variables(
    name: str, transformed: dict[str, Any]
) -> None:
    # GIVEN the environment a function is deployed with (Globals merged in)
    deployed = transformed["Resources"][logical_id(name)]["Properties"]
    variables = deployed["Environment"]["Variables"]
    # THEN every variable is one certiq.config.Settings defines
    assert sorted(set(variables) - allowed_env_names()) == []
    # AND the function runs the AWS adapters
    assert variables["CERTIQ_RUNTIME"] == "aws"


# What each function's step (certiq.steps.<name>, or the handler's own code) uses. Each function's
# environment names exactly these, and its Policies reach each resource among them.
USES: dict[str, set[str]] = {
    "ingest": {"bucket", "documents", "index", "certificates", "rechecks"},
    "validate": {"questions", "documents"},
    "redact": {"questions", "documents", "models"},
    "translate": {"models"},
    "retrieve": {"questions", "certificates", "index", "models"},
    "find_verified_answer": {"answers", "certificates", "documents", "signer", "index", "models"},
    "answer": {"questions", "models"},
    "verify": {"questions", "index", "models"},
    "guard_answer": {"documents", "models"},
    "persist": {"questions", "certificates", "documents", "answers", "signer", "models"},
    "record_failure": {"questions", "documents"},
    "api": {
        "questions",
        "certificates",
        "documents",
        "bucket",
        "index",
        "signer",
        "models",
        "rechecks",
    },
    # certiq.runtime.recheck_queue over certiq.trust.rechecks.recheck_requested.
    "recheck": {"certificates", "documents", "index", "signer"},
}
VARIABLES = {
    "questions": {"CERTIQ_AWS__QUESTIONS_TABLE", "CERTIQ_AWS__QUESTION_RETENTION_DAYS"},
    "documents": {"CERTIQ_AWS__DOCUMENTS_TABLE"},
    "certificates": {"CERTIQ_AWS__CERTIFICATES_TABLE"},
    "answers": {"CERTIQ_AWS__ANSWERS_TABLE"},
    "signer": {"CERTIQ_AWS__KMS_KEY_ID"},
    "bucket": {"CERTIQ_AWS__BUCKET"},
    "index": {"CERTIQ_OPENSEARCH__ENDPOINT"},
    "rechecks": {"CERTIQ_AWS__RECHECK_QUEUE_URL"},
    "models": {
        "CERTIQ_ANSWER__PROVIDERS",
        "CERTIQ_LLM__PROVIDER",
        "CERTIQ_LLM__API_KEYS_SECRET_ARN",
    },
}
# The resource a policy must reach for each use (the models' secret is checked further below).
POLICY_TARGETS = {
    "questions": '{"Ref": "QuestionsTable"}',
    "documents": '{"Ref": "DocumentsTable"}',
    "certificates": '{"Ref": "CertificatesTable"}',
    "answers": '{"Ref": "AnswersTable"}',
    "signer": '{"Fn::GetAtt": ["CertificateKey", "Arn"]}',
    "bucket": "-documents",
    "index": '{"Ref": "SearchDomain"}',
    "rechecks": '{"Fn::GetAtt": ["RecheckQueue", "QueueName"]}',
}
EVERY_FUNCTION = {"CERTIQ_RUNTIME", "CERTIQ_AWS__REGION"}
# Variables one function alone needs, beyond its uses above.
OWN = {
    "ingest": {"CERTIQ_AWS__IDEMPOTENCY_TABLE", "CERTIQ_OCR__TEXTRACT_MAX_WAIT_SECONDS"},
    "persist": {"CERTIQ_AWS__CERTIFICATE_ARCHIVE_BUCKET"},
    "api": {"CERTIQ_AWS__STATE_MACHINE_ARN", "CERTIQ_API__CORS_ALLOW_ORIGIN"},
}
# Deps fields that are one of the uses above.
DEPS_USES = {
    "questions": "questions",
    "documents": "documents",
    "certificates": "certificates",
    "answers": "answers",
    "signer": "signer",
    "blobs": "bucket",
    "index": "index",
    "chat_model": "models",
    "translator": "models",
    "name_finder": "models",
    "rewriter": "models",
    "claim_splitter": "models",
    "rechecks": "rechecks",
}


def function_variables(template: dict[str, Any], name: str) -> dict[str, Any]:
    """Globals' variables merged with the function's own, as SAM deploys them."""
    variables = dict(template["Globals"]["Function"]["Environment"]["Variables"])
    own = template["Resources"][logical_id(name)]["Properties"].get("Environment", {})
    return variables | own.get("Variables", {})


@pytest.mark.parametrize("name", FUNCTIONS)
def test_a_function_gets_the_settings_and_permissions_its_step_uses_and_no_others(
    name: str, template: dict[str, Any]
) -> None:
    # GIVEN the function's environment and policies as declared
    variables = set(function_variables(template, name))
    policies = json.dumps(template["Resources"][logical_id(name)]["Properties"]["Policies"])
    # THEN its environment names what its step uses, and nothing more
    needed = EVERY_FUNCTION | OWN.get(name, set())
    needed |= {variable for use in USES[name] for variable in VARIABLES[use]}
    assert sorted(variables) == sorted(needed)
    # AND a policy reaches every resource it uses
    missing = [
        use for use in USES[name] if use in POLICY_TARGETS and POLICY_TARGETS[use] not in policies
    ]
    assert missing == []


@pytest.mark.parametrize("name", sorted(set(FUNCTIONS) - NOT_STEPS))
def test_the_uses_named_for_a_step_cover_what_its_code_reads(name: str) -> None:
    # GIVEN the Deps fields the step's module reads
    module = ast.parse((ROOT / "layers/core/certiq/steps" / f"{name}.py").read_text("utf-8"))
    read = {
        node.attr
        for node in ast.walk(module)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "deps"
    }
    # THEN each of them that needs a setting or a permission is among its function's uses
    assert {DEPS_USES[field] for field in read if field in DEPS_USES} <= USES[name]
    # AND each adapter it reads is among those a SnapStart snapshot holds built for it
    assert read <= set(step_dependencies(name))
    assert set(step_dependencies(name)) <= {field.name for field in dataclasses.fields(Deps)}


def test_only_the_api_function_knows_the_state_machine(transformed: dict[str, Any]) -> None:
    # GIVEN the deployed functions' environments
    resources = transformed["Resources"]
    holders = {
        rid
        for rid, resource in resources.items()
        if resource["Type"] == "AWS::Lambda::Function"
        and "CERTIQ_AWS__STATE_MACHINE_ARN" in resource["Properties"]["Environment"]["Variables"]
    }
    # THEN only ApiFunction gets the state machine ARN (a task function holding it would be a
    # cycle: the state machine depends on its task functions)
    assert holders == {"ApiFunction"}
    variables = resources["ApiFunction"]["Properties"]["Environment"]["Variables"]
    assert variables["CERTIQ_AWS__STATE_MACHINE_ARN"] == {"Ref": "AnswerStateMachine"}


# The functions whose steps may call a model (certiq.steps: name finder, translator, rewriter,
# answer chain, judge and claim splitter, translation back).
MODEL_CALLERS = {"redact", "translate", "retrieve", "answer", "verify", "guard_answer"}


def secret_readers(transformed: dict[str, Any]) -> dict[str, list[Any]]:
    """Role id -> the resources its secretsmanager:GetSecretValue statements name."""
    readers: dict[str, list[Any]] = {}
    for where, document in policy_documents(transformed["Resources"]):
        for statement in as_list(document["Statement"]):
            if "secretsmanager:GetSecretValue" in as_list(statement.get("Action", [])):
                role = where.split("/")[0]
                readers.setdefault(role, []).extend(as_list(statement["Resource"]))
    return readers


def test_only_functions_calling_models_may_read_the_keys_secret(
    template: dict[str, Any], transformed: dict[str, Any]
) -> None:
    # GIVEN the deployed roles' policies
    readers = secret_readers(transformed)
    # THEN exactly the model-calling functions may read a secret, and only the keys' secret
    assert set(readers) == {logical_id(name) + "Role" for name in MODEL_CALLERS}
    for resources in readers.values():
        assert resources == [
            {"Fn::Sub": ["${secretArn}", {"secretArn": {"Ref": "ModelKeysSecretArn"}}]}
        ]
    # AND the grant exists only when a secret is given (HasModelKeys), through the SAM template
    answer_policies = template["Resources"]["AnswerFunction"]["Properties"]["Policies"]
    assert {
        "Fn::If": [
            "HasModelKeys",
            {"AWSSecretsManagerGetSecretValuePolicy": {"SecretArn": {"Ref": "ModelKeysSecretArn"}}},
            {"Ref": "AWS::NoValue"},
        ]
    } in answer_policies


def test_model_settings_and_question_retention_come_from_parameters(
    template: dict[str, Any],
) -> None:
    # GIVEN the variables of the functions whose steps use the models and the questions table
    for name in FUNCTIONS:
        variables = function_variables(template, name)
        # THEN the answer chain, the model, the keys' secret and the retention are parameters
        if "models" in USES[name]:
            assert variables["CERTIQ_ANSWER__PROVIDERS"] == {"Ref": "AnswerProviders"}
            assert variables["CERTIQ_LLM__PROVIDER"] == {"Ref": "LlmProvider"}
            assert variables["CERTIQ_LLM__API_KEYS_SECRET_ARN"] == {"Ref": "ModelKeysSecretArn"}
        if "questions" in USES[name]:
            assert variables["CERTIQ_AWS__QUESTION_RETENTION_DAYS"] == {
                "Ref": "QuestionRetentionDays"
            }
    parameters = template["Parameters"]
    # AND the defaults call no model and keep questions 90 days, as certiq.config's defaults do
    defaults = Settings()
    assert parameters["ModelKeysSecretArn"]["Default"] == defaults.llm.api_keys_secret_arn == ""
    assert json.loads(parameters["AnswerProviders"]["Default"]) == defaults.answer.providers
    assert parameters["LlmProvider"]["Default"] == defaults.llm.provider
    assert parameters["QuestionRetentionDays"]["Default"] == defaults.aws.question_retention_days
    # AND the parameters accept what the settings accept
    chain = re.compile(parameters["AnswerProviders"]["AllowedPattern"])
    assert chain.fullmatch('["anthropic", "openai", "extractive"]')
    assert not chain.fullmatch('["gemini"]')
    arn = re.compile(parameters["ModelKeysSecretArn"]["AllowedPattern"])
    assert arn.fullmatch("arn:aws:secretsmanager:eu-west-1:123456789012:secret:certiq/keys-AbCdEf")
    assert not arn.fullmatch("certiq/keys")
    # AND without a secret, a stack asking for a model is refused at deploy time
    (assertion,) = template["Rules"]["ModelsNeedTheirKeys"]["Assertions"]
    assert template["Rules"]["ModelsNeedTheirKeys"]["RuleCondition"] == {
        "Fn::Equals": [{"Ref": "ModelKeysSecretArn"}, ""]
    }
    assert {"Fn::Equals": [{"Ref": "LlmProvider"}, "none"]} in assertion["Assert"]["Fn::And"]


def test_the_api_function_adds_cors_headers_for_the_stack_origin(template: dict[str, Any]) -> None:
    # GIVEN the API function's own variables
    variables = template["Resources"]["ApiFunction"]["Properties"]["Environment"]["Variables"]
    # THEN it allows the origin API Gateway's preflight allows
    assert variables["CERTIQ_API__CORS_ALLOW_ORIGIN"] == {"Ref": "CorsAllowOrigin"}
    # AND the parameter accepts only what the setting accepts
    pattern = re.compile(template["Parameters"]["CorsAllowOrigin"]["AllowedPattern"])
    field = Settings.model_fields["api"].annotation
    assert field is not None
    for origin in ("*", "https://app.example.com", "http://localhost:8000", "app", "https://a/b"):
        try:
            field(cors_allow_origin=origin)
            accepted = True
        except ValueError:
            accepted = False
        assert bool(pattern.fullmatch(origin)) == accepted, origin


def test_no_iam_statement_grants_every_action_or_every_resource(
    transformed: dict[str, Any],
) -> None:
    # GIVEN every IAM policy in the deployed stack (inline ones on SAM's roles included)
    offences = []
    for where, document in policy_documents(transformed["Resources"]):
        for statement in as_list(document["Statement"]):
            if statement.get("Effect") != "Allow":
                continue
            actions = as_list(statement.get("Action", []))
            resources = as_list(statement.get("Resource", []))
            # THEN no statement uses NotAction/NotResource or a wildcard action
            if "NotAction" in statement or "NotResource" in statement:
                offences.append(f"{where}: NotAction/NotResource")
            if any(isinstance(a, str) and (a == "*" or a.endswith(":*")) for a in actions):
                offences.append(f"{where}: wildcard action {actions}")
            # AND "*" as a resource only for the actions AWS documents that way
            if "*" in resources and not set(actions) <= UNSCOPED_ACTIONS:
                offences.append(f"{where}: Resource '*' for {actions}")
    assert offences == []


def test_only_the_ingest_function_may_run_text_detection(transformed: dict[str, Any]) -> None:
    # GIVEN every IAM statement naming a Textract action
    grants: dict[str, set[str]] = {}
    for where, document in policy_documents(transformed["Resources"]):
        for statement in as_list(document["Statement"]):
            actions = {a for a in as_list(statement.get("Action", [])) if a.startswith("textract:")}
            if actions:
                grants.setdefault(where.split("/")[0], set()).update(actions)
    # THEN the ingest function's role alone has them, and only text detection's two actions
    assert grants == {"IngestFunctionRole": TEXTRACT_ACTIONS}


def test_roles_carry_only_the_managed_policies_sam_attaches(transformed: dict[str, Any]) -> None:
    # GIVEN the managed policies attached to the stack's roles
    attached = {
        arn
        for resource in transformed["Resources"].values()
        if resource["Type"] == "AWS::IAM::Role"
        for arn in resource["Properties"].get("ManagedPolicyArns", [])
    }
    # THEN they are the basic execution role and X-Ray write access, nothing broader
    assert attached <= ALLOWED_MANAGED_POLICIES


def test_state_machine_role_may_invoke_each_task_function(template: dict[str, Any]) -> None:
    # GIVEN the state machine's substitutions and policies
    machine = template["Resources"]["AnswerStateMachine"]["Properties"]
    substituted = {
        value["Ref"].removesuffix(".Alias") for value in machine["DefinitionSubstitutions"].values()
    }
    invocable = {
        policy["LambdaInvokePolicy"]["FunctionName"]["Ref"]
        for policy in machine["Policies"]
        if isinstance(policy, dict) and "LambdaInvokePolicy" in policy
    }
    # THEN a LambdaInvokePolicy template covers exactly the functions it runs
    assert invocable == substituted


def test_certificate_key_signs_asymmetrically_and_only_the_account_administers_it(
    template: dict[str, Any],
) -> None:
    # GIVEN the certificate key
    key = template["Resources"]["CertificateKey"]["Properties"]
    # THEN it is an ECC signing key, whose public half checks certificates without AWS access
    assert (key["KeySpec"], key["KeyUsage"]) == ("ECC_NIST_P256", "SIGN_VERIFY")
    # AND its key policy names only the account root as principal, never "*"
    principals = [s["Principal"] for s in key["KeyPolicy"]["Statement"]]
    assert principals == [{"AWS": {"Fn::Sub": "arn:${AWS::Partition}:iam::${AWS::AccountId}:root"}}]
    # AND functions reach it only through Sign (the sealing and re-checking functions alone) and
    # GetPublicKey,
    # scoped to its ARN
    grants = {
        name: statement
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
        for policy in resource["Properties"].get("Policies", [])
        if isinstance(policy, dict) and "Statement" in policy
        for statement in policy["Statement"]
        if str(statement.get("Action", "")).startswith("kms:")
    }
    assert grants
    for name, statement in grants.items():
        assert statement["Action"] in ("kms:Sign", "kms:GetPublicKey")
        assert statement["Resource"] == {"Fn::GetAtt": ["CertificateKey", "Arn"]}
        # (the recheck function signs each re-check record it appends)
        assert (statement["Action"] == "kms:Sign") == (
            name in {"PersistFunction", "RecheckFunction"}
        )


def test_certificates_are_archived_in_a_compliance_mode_object_lock_bucket(
    template: dict[str, Any],
) -> None:
    # GIVEN the certificate archive
    resources = template["Resources"]
    bucket = resources["CertificateArchiveBucket"]
    properties = bucket["Properties"]
    # THEN Object Lock is on, in compliance mode, for the retention the parameter sets
    assert properties["ObjectLockEnabled"] is True
    lock = properties["ObjectLockConfiguration"]
    assert lock["ObjectLockEnabled"] == "Enabled"
    assert lock["Rule"]["DefaultRetention"] == {
        "Mode": "COMPLIANCE",
        "Days": {"Ref": "CertificateRetentionDays"},
    }
    assert template["Parameters"]["CertificateRetentionDays"]["MinValue"] >= 1
    # AND it is versioned, private, encrypted, and outlives the stack
    assert properties["VersioningConfiguration"] == {"Status": "Enabled"}
    assert all(properties["PublicAccessBlockConfiguration"].values())
    assert properties["BucketEncryption"]
    assert bucket["DeletionPolicy"] == "Retain"
    # AND only the sealing function writes to it, and knows its name
    writers = [
        name
        for name, resource in resources.items()
        if resource["Type"] == "AWS::Serverless::Function"
        and "CertificateArchiveBucket" in json.dumps(resource["Properties"])
    ]
    assert writers == ["PersistFunction"]
    persist = resources["PersistFunction"]["Properties"]
    assert persist["Environment"]["Variables"]["CERTIQ_AWS__CERTIFICATE_ARCHIVE_BUCKET"] == {
        "Ref": "CertificateArchiveBucket"
    }
    assert {"S3WritePolicy": {"BucketName": {"Ref": "CertificateArchiveBucket"}}} in persist[
        "Policies"
    ]


TABLES = {
    "DocumentsTable": ("documents", None),
    "QuestionsTable": ("questions", "expires_at"),
    "CertificatesTable": ("certificates", None),
    "IdempotencyTable": ("idempotency", "expiration"),
    "AnswersTable": ("answers", None),
}


@pytest.mark.parametrize("table_id", sorted(TABLES))
def test_table_has_its_keys_ttl_and_protections(table_id: str, template: dict[str, Any]) -> None:
    # GIVEN a table
    table = template["Resources"][table_id]
    properties = table["Properties"]
    logical, ttl = TABLES[table_id]
    # THEN its keys, attributes and secondary indexes are the adapters' (certiq...tables)
    assert properties["KeySchema"] == key_schema(logical)
    assert properties["AttributeDefinitions"] == attribute_definitions(logical)
    assert properties.get("GlobalSecondaryIndexes", []) == global_secondary_indexes(logical)
    # AND its TTL attribute (if any) is the documented one
    ttl_spec = properties.get("TimeToLiveSpecification")
    assert ttl_spec == (None if ttl is None else {"AttributeName": ttl, "Enabled": True})
    # AND it is on-demand, point-in-time recoverable and encrypted
    assert table["Type"] == "AWS::DynamoDB::Table"
    assert properties["BillingMode"] == "PAY_PER_REQUEST"
    assert properties["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert properties["SSESpecification"] == {"SSEEnabled": True}


def test_documents_bucket_is_private_encrypted_versioned(template: dict[str, Any]) -> None:
    # GIVEN the documents bucket
    bucket = template["Resources"]["DocumentsBucket"]["Properties"]
    # THEN it is encrypted, versioned and blocks every kind of public access
    rules = bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    assert rules[0]["ServerSideEncryptionByDefault"]["SSEAlgorithm"] in ("AES256", "aws:kms")
    assert bucket["VersioningConfiguration"] == {"Status": "Enabled"}
    assert set(bucket["PublicAccessBlockConfiguration"].values()) == {True}
    assert len(bucket["PublicAccessBlockConfiguration"]) == 4


def test_pdf_changes_in_the_bucket_trigger_ingest_without_a_cycle(template: dict[str, Any]) -> None:
    # GIVEN the ingest function's S3 event and everything else it references
    ingest = template["Resources"]["IngestFunction"]["Properties"]
    (event,) = ingest["Events"].values()
    # THEN it listens to object creation and removal of *.pdf in the stack's bucket
    assert event["Type"] == "S3"
    assert event["Properties"]["Bucket"] == {"Ref": "DocumentsBucket"}
    assert sorted(event["Properties"]["Events"]) == ["s3:ObjectCreated:*", "s3:ObjectRemoved:*"]
    assert event["Properties"]["Filter"]["S3Key"]["Rules"] == [{"Name": "suffix", "Value": ".pdf"}]
    # AND outside Events nothing in any function refers to the bucket resource (that would close
    # the bucket -> permission -> function -> bucket cycle); the built bucket name is used instead
    bucket_name = template["Resources"]["DocumentsBucket"]["Properties"]["BucketName"]
    for name in ("ingest", "api"):
        assert function_variables(template, name)["CERTIQ_AWS__BUCKET"] == bucket_name
    for rid, resource in template["Resources"].items():
        if resource["Type"] == "AWS::Serverless::Function":
            properties = {k: v for k, v in resource["Properties"].items() if k != "Events"}
            assert not re.search(r'"DocumentsBucket[".]', json.dumps(properties)), rid


def test_every_caller_invokes_the_published_alias_that_snapstart_snapshots(
    template: dict[str, Any], transformed: dict[str, Any]
) -> None:
    # GIVEN the functions' Globals and the parameter that turns SnapStart on or off
    function_globals = template["Globals"]["Function"]
    parameter = template["Parameters"]["SnapStart"]
    # THEN every function publishes a version behind one alias, SnapStart on by default
    assert function_globals["AutoPublishAlias"] == "live"
    assert function_globals["SnapStart"] == {"ApplyOn": {"Ref": "SnapStart"}}
    assert parameter["Default"] == "PublishedVersions"
    assert sorted(parameter["AllowedValues"]) == ["None", "PublishedVersions"]
    resources = transformed["Resources"]
    functions = [rid for rid, r in resources.items() if r["Type"] == "AWS::Lambda::Function"]
    aliases = {
        r["Properties"]["FunctionName"]["Ref"]: rid
        for rid, r in resources.items()
        if r["Type"] == "AWS::Lambda::Alias"
    }
    assert sorted(aliases) == sorted(functions)
    # AND after the transform nothing invokes $LATEST: the state machine's tasks, every Lambda
    # permission (API Gateway, the bucket's notifications) and the API's integrations name aliases
    machine = resources["AnswerStateMachine"]["Properties"]["DefinitionSubstitutions"]
    assert {value["Ref"] for value in machine.values()} <= set(aliases.values())
    permissions = [r for r in resources.values() if r["Type"] == "AWS::Lambda::Permission"]
    assert permissions
    assert all(p["Properties"]["FunctionName"]["Ref"] in aliases.values() for p in permissions)
    body = json.dumps(resources["CertiqApi"]["Properties"]["Body"])
    assert "${ApiFunction.Arn}" not in body and "${ApiFunctionAliaslive}" in body


def test_search_is_one_encrypted_https_only_domain_with_no_serverless_option(
    template: dict[str, Any],
) -> None:
    # GIVEN the stack's resources and parameters
    resources = template["Resources"]
    # THEN there is no OpenSearch Serverless option or resource: its vector collections refuse
    # the custom document ids that make re-indexing idempotent
    assert "SearchEngine" not in template["Parameters"]
    assert not [r for r in resources.values() if r["Type"].startswith("AWS::OpenSearchServerless")]
    assert "aoss:" not in json.dumps(resources)
    # AND the managed domain always exists, encrypted and HTTPS-only
    domain = resources["SearchDomain"]
    assert "Condition" not in domain
    assert domain["Properties"]["EncryptionAtRestOptions"] == {"Enabled": True}
    assert domain["Properties"]["NodeToNodeEncryptionOptions"] == {"Enabled": True}
    assert domain["Properties"]["DomainEndpointOptions"]["EnforceHTTPS"] is True


API_ROUTES = {
    ("post", "/v1/questions"),
    ("x-amazon-apigateway-any-method", "/v1/{proxy+}"),
    ("get", "/openapi.json"),
    ("get", "/"),
    ("get", "/static/{name}"),
}
# The API's description and the web page's files; everything under /v1 is authenticated.
PUBLIC_ROUTES = {("get", "/openapi.json"), ("get", "/"), ("get", "/static/{name}")}


def swagger_method(method: str) -> str:
    return "x-amazon-apigateway-any-method" if method.upper() == "ANY" else method.lower()


def test_api_routes_match_the_function_events_and_integrate_it(
    template: dict[str, Any], transformed: dict[str, Any]
) -> None:
    # GIVEN the REST API's description and the API function's events
    body = template["Resources"]["CertiqApi"]["Properties"]["DefinitionBody"]
    events = template["Resources"]["ApiFunction"]["Properties"]["Events"].values()
    described = {(m, path) for path, methods in body["paths"].items() for m in methods}
    # THEN the routes are the product's, and each has an Api event on this API (which gives
    # API Gateway its Lambda permission)
    assert described == API_ROUTES
    assert all(e["Type"] == "Api" for e in events)
    assert all(e["Properties"]["RestApiId"] == {"Ref": "CertiqApi"} for e in events)
    routed = {(swagger_method(e["Properties"]["Method"]), e["Properties"]["Path"]) for e in events}
    assert routed == API_ROUTES
    # AND each route proxies to the API function, and only to it
    for method, path in API_ROUTES:
        integration = body["paths"][path][method]["x-amazon-apigateway-integration"]
        assert integration["type"] == "aws_proxy" and integration["httpMethod"] == "POST"
        # (its alias, the published version SnapStart snapshots: SAM names it <Function>Alias<name>)
        assert "${ApiFunctionAliaslive}" in integration["uri"]["Fn::Sub"]
    # AND PDF uploads and page images pass as binary, without making every body binary
    api = template["Resources"]["CertiqApi"]["Properties"]
    assert sorted(api["BinaryMediaTypes"]) == ["application~1pdf", "image~1png"]
    # AND after the transform SAM has added the CORS preflight to each path
    deployed = transformed["Resources"]["CertiqApi"]["Properties"]["Body"]["paths"]
    assert all("options" in deployed[path] for _, path in API_ROUTES)


def test_api_authentication_is_iam_or_cognito_by_parameter(template: dict[str, Any]) -> None:
    # GIVEN the ApiAuth parameter and the API's security
    parameter = template["Parameters"]["ApiAuth"]
    condition = template["Conditions"]["UseCognitoAuth"]
    body = template["Resources"]["CertiqApi"]["Properties"]["DefinitionBody"]
    # THEN it chooses IAM (the default) or COGNITO
    assert (parameter["AllowedValues"], parameter["Default"]) == (["IAM", "COGNITO"], "IAM")
    assert condition == {"Fn::Equals": [{"Ref": "ApiAuth"}, "COGNITO"]}
    # AND every route but the public description requires the chosen scheme
    chosen = {"Fn::If": ["UseCognitoAuth", [{"cognito": []}], [{"sigv4": []}]]}
    for method, path in API_ROUTES - PUBLIC_ROUTES:
        assert body["paths"][path][method]["security"] == chosen, (method, path)
    for method, path in PUBLIC_ROUTES:
        assert "security" not in body["paths"][path][method]
    assert all(path.startswith("/v1/") for _, path in API_ROUTES - PUBLIC_ROUTES)
    # AND the schemes are SigV4, or a Cognito authorizer on the stack's own user pool
    cognito, sigv4 = body["securityDefinitions"]["Fn::If"][1:]
    assert sigv4["sigv4"]["x-amazon-apigateway-authtype"] == "awsSigv4"
    authorizer = cognito["cognito"]["x-amazon-apigateway-authorizer"]
    assert authorizer["type"] == "cognito_user_pools"
    assert authorizer["providerARNs"] == [{"Fn::GetAtt": ["ApiUserPool", "Arn"]}]
    pool = template["Resources"]["ApiUserPool"]
    assert pool["Condition"] == "UseCognitoAuth"
    assert pool["Properties"]["AdminCreateUserConfig"]["AllowAdminCreateUserOnly"] is True


def test_an_optional_hosted_sign_in_returns_to_the_web_page(template: dict[str, Any]) -> None:
    # GIVEN the hosted sign-in's condition, domain, app client and output
    resources = template["Resources"]
    page = {"Fn::Sub": "https://${CertiqApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}/Prod/"}
    # THEN it exists only with Cognito auth and a domain prefix (empty by default)
    assert template["Parameters"]["SignInDomainPrefix"]["Default"] == ""
    assert template["Conditions"]["HasHostedSignIn"] == {
        "Fn::And": [
            {"Condition": "UseCognitoAuth"},
            {"Fn::Not": [{"Fn::Equals": [{"Ref": "SignInDomainPrefix"}, ""]}]},
        ]
    }
    domain = resources["ApiUserPoolDomain"]
    assert domain["Condition"] == "HasHostedSignIn"
    assert domain["Properties"]["Domain"] == {"Ref": "SignInDomainPrefix"}
    # AND the app client returns the ID token (implicit grant, openid) to the web page only
    client = resources["ApiUserPoolClient"]["Properties"]
    assert client["CallbackURLs"]["Fn::If"][:2] == ["HasHostedSignIn", [page]]
    assert client["AllowedOAuthFlows"]["Fn::If"][:2] == ["HasHostedSignIn", ["implicit"]]
    assert "openid" in client["AllowedOAuthScopes"]["Fn::If"][1]
    # AND the output opens the hosted UI asking for a token sent back to that page
    url = template["Outputs"]["SignInUrl"]["Value"]["Fn::Sub"]
    assert "response_type=token" in url[0] and url[0].endswith("redirect_uri=${Page}")
    assert url[1]["Page"] == page


def test_api_is_throttled_and_validates_requests(template: dict[str, Any]) -> None:
    # GIVEN the REST API
    api = template["Resources"]["CertiqApi"]["Properties"]
    body = api["DefinitionBody"]
    # THEN every route of the stage is throttled by parameters, and CORS is configured
    (settings,) = api["MethodSettings"]
    assert (settings["ResourcePath"], settings["HttpMethod"]) == ("/*", "*")
    assert settings["ThrottlingRateLimit"] == {"Ref": "ApiThrottlingRateLimit"}
    assert settings["ThrottlingBurstLimit"] == {"Ref": "ApiThrottlingBurstLimit"}
    assert api["Cors"]["AllowOrigin"] == {"Fn::Sub": "'${CorsAllowOrigin}'"}
    # AND API Gateway validates parameters everywhere and the body of POST /v1/questions
    validators = body["x-amazon-apigateway-request-validators"]
    assert validators[body["x-amazon-apigateway-request-validator"]]["validateRequestParameters"]
    ask = body["paths"]["/v1/questions"]["post"]
    assert validators[ask["x-amazon-apigateway-request-validator"]]["validateRequestBody"]
    (parameter,) = ask["parameters"]
    assert parameter["schema"] == {"$ref": "#/definitions/QuestionRequest"}


def test_gateway_question_model_agrees_with_the_pydantic_contract(template: dict[str, Any]) -> None:
    # GIVEN the body model API Gateway checks and certiq.models.QuestionRequest's JSON Schema
    from certiq.models import QuestionRequest

    model = template["Resources"]["CertiqApi"]["Properties"]["DefinitionBody"]["definitions"][
        "QuestionRequest"
    ]
    contract = QuestionRequest.model_json_schema()
    # THEN the gateway requires what the contract requires, and names only its fields
    assert model["required"] == contract["required"]
    assert set(model["properties"]) <= set(contract["properties"])
    # AND a field's limits are never stricter at the gateway than in the contract (a request
    # the function would accept is never refused before it)
    for name, rules in model["properties"].items():
        field = contract["properties"][name]
        options = field.get("anyOf", [field])
        strings = [o for o in options if o.get("type") == "string"]
        assert strings, name
        if "maxLength" in rules:
            assert rules["maxLength"] >= max(o.get("maxLength", 0) for o in strings), name
        if "pattern" in rules:
            assert rules["pattern"] in {o.get("pattern") for o in strings}, name
        assert "minLength" not in rules, name  # Validate answers short questions itself
        if "enum" in rules:
            assert rules["enum"] in [o.get("enum") for o in strings], name


def test_failed_ingestions_and_executions_are_queued_and_alarmed(
    template: dict[str, Any],
) -> None:
    # GIVEN the stack's queues, rules and alarms
    resources = template["Resources"]
    alarms = {
        rid: resource["Properties"]
        for rid, resource in resources.items()
        if resource["Type"] == "AWS::CloudWatch::Alarm"
    }
    # THEN an S3 event the ingest function cannot handle after its retries lands in a queue
    ingest = resources["IngestFunction"]["Properties"]
    assert ingest["DeadLetterQueue"]["TargetArn"] == {
        "Fn::GetAtt": ["IngestDeadLetterQueue", "Arn"]
    }
    # AND a failed, timed-out or aborted execution of the state machine lands in a queue
    rule = resources["FailedExecutionsRule"]["Properties"]
    assert rule["EventPattern"]["detail"]["stateMachineArn"] == [{"Ref": "AnswerStateMachine"}]
    assert set(rule["EventPattern"]["detail"]["status"]) == {"FAILED", "TIMED_OUT", "ABORTED"}
    assert [t["Arn"] for t in rule["Targets"]] == [{"Fn::GetAtt": ["FailedExecutionsQueue", "Arn"]}]
    # AND alarms watch the ingest queue and the state machine's failures, notifying the topic
    watched = json.dumps(alarms)
    assert '"IngestDeadLetterQueue", "QueueName"' in watched
    assert '"MetricName": "ExecutionsFailed"' in watched
    assert all(alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}] for alarm in alarms.values())


def test_rechecks_are_queued_with_a_dead_letter_queue_and_consumed_in_partial_batches(
    template: dict[str, Any], transformed: dict[str, Any]
) -> None:
    # GIVEN the recheck queue, its dead-letter queue and the recheck function
    resources = template["Resources"]
    queue = resources["RecheckQueue"]["Properties"]
    function = resources["RecheckFunction"]["Properties"]
    timeout = function.get("Timeout", template["Globals"]["Function"]["Timeout"])
    # THEN both queues are encrypted, and a message that keeps failing moves to the dead letters
    assert queue["SqsManagedSseEnabled"] is True
    assert resources["RecheckDeadLetterQueue"]["Properties"]["SqsManagedSseEnabled"] is True
    assert queue["RedrivePolicy"]["deadLetterTargetArn"] == {
        "Fn::GetAtt": ["RecheckDeadLetterQueue", "Arn"]
    }
    assert queue["RedrivePolicy"]["maxReceiveCount"] >= 2
    # AND a message stays hidden longer than a batch holding it can run
    assert queue["VisibilityTimeout"] > timeout
    # AND the function consumes the queue, answering with the messages that failed
    (event,) = function["Events"].values()
    assert event["Type"] == "SQS"
    assert event["Properties"]["Queue"] == {"Fn::GetAtt": ["RecheckQueue", "Arn"]}
    assert event["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    mappings = [
        r["Properties"]
        for r in transformed["Resources"].values()
        if r["Type"] == "AWS::Lambda::EventSourceMapping"
    ]
    assert [m["FunctionResponseTypes"] for m in mappings] == [["ReportBatchItemFailures"]]
    # AND only the functions that change documents may send to it, through the policy template
    senders = sorted(
        name
        for name, resource in resources.items()
        if resource["Type"] == "AWS::Serverless::Function"
        and "SQSSendMessagePolicy" in json.dumps(resource["Properties"].get("Policies", []))
    )
    assert senders == ["ApiFunction", "IngestFunction"]
    # AND the dead letters are alarmed on the topic
    alarm = resources["RecheckFailuresAlarm"]["Properties"]
    assert alarm["Dimensions"] == [
        {"Name": "QueueName", "Value": {"Fn::GetAtt": ["RecheckDeadLetterQueue", "QueueName"]}}
    ]
    assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}]


def test_outputs_name_what_clients_need(template: dict[str, Any]) -> None:
    # GIVEN the stack outputs
    outputs = template["Outputs"]
    # THEN the API URL, the bucket and the state machine are among them
    assert {"ApiUrl", "DocumentsBucketName", "StateMachineArn"} <= set(outputs)
    assert outputs["DocumentsBucketName"]["Value"] == {"Ref": "DocumentsBucket"}
    assert outputs["StateMachineArn"]["Value"] == {"Ref": "AnswerStateMachine"}
    assert "${CertiqApi}" in outputs["ApiUrl"]["Value"]["Fn::Sub"]


def requirement_names(lines: list[str]) -> set[str]:
    names = set()
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", line)
            assert match, f"not a plain requirement: {line!r}"
            names.add(re.sub(r"[-_.]+", "-", match.group()).lower())
    return names


def test_layer_builds_the_certiq_package_with_its_dependencies(template: dict[str, Any]) -> None:
    # GIVEN the layer and its requirements file
    layer = template["Resources"]["CertiqLayer"]
    content = ROOT / layer["Properties"]["ContentUri"]
    lines = (content / "requirements.txt").read_text(encoding="utf-8").splitlines()
    # THEN sam builds it as a python3.12 layer from layers/core/, whose certiq/ folder is copied
    # into python/ next to the installed requirements
    assert layer["Metadata"]["BuildMethod"] == "python3.12"
    assert layer["Properties"]["ContentUri"] == "layers/core/"
    assert (content / "certiq" / "__init__.py").is_file()
    # AND the requirements are plain distributions: no local path, editable or certiq itself
    names = requirement_names(lines)
    assert "certiq" not in names
    assert {"pydantic", "pydantic-settings", "pypdfium2", "aws-lambda-powertools"} <= names
    # AND every runtime dependency of the package is in the layer
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert requirement_names(project["dependencies"]) <= names
