"""The deployed shape of the stack, under moto: template.yaml's resources, the real ASL, the real
functions/<name>/app.py handlers.

What is real here: the tables (key schemas, indexes and TTL read from template.yaml), the bucket,
the KMS signing key, the certificate archive (Object Lock), each function's environment exactly
as template.yaml resolves it (Globals merged), the state machine created from
certiq/statemachine/answer.asl.json with its DefinitionSubstitutions, executed by moto's Step
Functions interpreter (``execute_state_machine``), which calls Lambda's Invoke API for every Task
and applies Retry and Catch to what comes back.

The one seam: moto runs a Lambda function's code in a Docker container
(``LambdaFunction._invoke_lambda``), and there is no Docker here. That method alone is replaced
by ``InProcessLambda.invoke``, which imports the function's own functions/<name>/app.py (a fresh
module and fresh Deps: every invocation is a cold start), sets the function's environment while
it runs, calls ``lambda_handler(event, context)`` and returns the JSON result, or Lambda's error
payload ``{"errorType", "errorMessage", "stackTrace"}`` for an exception, as the Python runtime
does. Everything around it (Invoke, FunctionError, Step Functions' Lambda integration) stays
moto's. OpenSearch is a real node (tests/opensearch.py), in place of the managed domain.

The expected order of states is derived from the ASL file, so adding states keeps these tests
valid: a normal question walks the longest way from StartAt to a successful end; a failing step
goes where its Catch says.
"""

from __future__ import annotations

import base64
import contextlib
import importlib.util
import io
import itertools
import json
import os
import re
import threading
import time
import traceback
import uuid
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote_plus

import boto3
import pytest
from botocore.exceptions import ClientError
from cfnlint.decode import decode
from moto import mock_aws
from moto.awslambda.models import LambdaFunction

from certiq.adapters.aws.dynamodb_stores import DynamoCertificateStore
from certiq.adapters.aws.kms_signer import KmsSigner
from certiq.adapters.aws.opensearch_client import make_client
from certiq.adapters.aws.opensearch_index import OpenSearchIndex
from certiq.config import OpenSearchSettings, get_settings
from certiq.models import Certificate, CertificateCheck, QuestionStatus
from certiq.runtime import lambda_handlers
from certiq.trust.certificate import check, check_with_public_key
from certiq.trust.signatures import load_public_key
from tests.conftest import build_pdf
from tests.fakes import api_gateway_event

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_kms import KMSClient
    from mypy_boto3_lambda import LambdaClient
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_stepfunctions import SFNClient


ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_PATH = ROOT / "template.yaml"
REGION = "us-east-1"
ACCOUNT = "123456789012"
STACK = "certiq"
PARAMETERS: dict[str, str] = {}
# The managed domain's endpoint attribute; functions get the test node's URL in its place.
DOMAIN_ENDPOINT = "search-certiq.us-east-1.es.amazonaws.com"
MACHINE_ID = "AnswerStateMachine"
FAILURE_CATCH = "States.ALL"
PLACEHOLDER = re.compile(r"\$\{([A-Za-z0-9]+)\}")

POLICY = [
    [
        "Backups of customer data are kept for 35 days and then deleted.",
        "Application logs are retained for 13 months for investigations.",
    ],
    ["Invoices are kept for 7 years to meet tax law."],
]
QUESTION = "How long are backups of customer data kept?"
TENANT = "default"


def load_template() -> dict[str, Any]:
    template, matches = decode(TEMPLATE_PATH)
    assert not matches, [str(m) for m in matches]
    return json.loads(json.dumps(template))  # type: ignore[no-any-return]


TEMPLATE = load_template()
RESOURCES: dict[str, dict[str, Any]] = TEMPLATE["Resources"]
MACHINE = RESOURCES[MACHINE_ID]["Properties"]
ASL_TEXT = (ROOT / MACHINE["DefinitionUri"]).read_text(encoding="utf-8")
ASL: dict[str, Any] = json.loads(ASL_TEXT)
STATES: dict[str, dict[str, Any]] = ASL["States"]


# --- the expected walks, from the ASL ---------------------------------------------------------


def transitions(state: dict[str, Any]) -> list[str]:
    """Where a state may go next, Catch excepted: Next or a Choice's Default, then its rules."""
    targets = [state[key] for key in ("Next", "Default") if key in state]
    targets += [choice["Next"] for choice in state.get("Choices", [])]
    return targets


def ends_well(state: dict[str, Any]) -> bool:
    return state["Type"] == "Succeed" or (state["Type"] != "Fail" and state.get("End") is True)


def main_line() -> list[str]:
    """The longest way from StartAt to a successful end: every state a normal question visits.

    Choices that shorten the walk (a question that ends early, an answer reused) are exceptions;
    the normal question takes every step. Between walks of equal length a Choice's Default wins.
    The ASL has no loops outside Retry.
    """

    def longest(name: str, seen: frozenset[str]) -> list[str] | None:
        state = STATES[name]
        best = [name] if ends_well(state) else None
        for target in transitions(state):
            if target in seen:
                continue
            rest = longest(target, seen | {target})
            if rest is not None and (best is None or len(rest) + 1 > len(best)):
                best = [name, *rest]
        return best

    walk = longest(ASL["StartAt"], frozenset({ASL["StartAt"]}))
    assert walk is not None, "the ASL has no way from StartAt to a successful end"
    return walk


def failure_walk(failing: str) -> list[str]:
    """The main line up to ``failing``, then its States.ALL Catch, then Next until the end."""
    line = main_line()
    walk = line[: line.index(failing) + 1]
    (catcher,) = [c for c in STATES[failing]["Catch"] if FAILURE_CATCH in c["ErrorEquals"]]
    name: str | None = catcher["Next"]
    while name is not None:
        walk.append(name)
        name = STATES[name].get("Next")
    return walk


def task_running(logical_id: str) -> str:
    """The name of the Task state whose Resource is ${<logical_id>Arn}."""
    (name,) = [
        name
        for name, state in STATES.items()
        if state["Type"] == "Task" and state["Resource"] == f"${{{logical_id}Arn}}"
    ]
    return name


# --- template.yaml's values, resolved as CloudFormation would ---------------------------------


@dataclass
class Resolver:
    """Resolves the intrinsic functions template.yaml uses, for one set of physical ids."""

    refs: dict[str, str]
    attributes: dict[str, str]
    conditions: dict[str, bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, expression in TEMPLATE.get("Conditions", {}).items():
            self.conditions[name] = self.condition(expression)

    def condition(self, node: Any) -> bool:
        ((function, args),) = node.items()
        if function == "Fn::Equals":
            return bool(self(args[0]) == self(args[1]))
        if function == "Fn::Not":
            return not self.condition(args[0])
        if function == "Fn::And":
            return all(self.condition(arg) for arg in args)
        if function == "Fn::Or":
            return any(self.condition(arg) for arg in args)
        if function == "Condition":
            return self.conditions[args]
        raise AssertionError(f"unsupported condition {node}")

    def __call__(self, node: Any) -> Any:
        if isinstance(node, list):
            return [self(item) for item in node]
        if not isinstance(node, dict):
            return node
        if len(node) != 1 or not next(iter(node)).startswith(("Ref", "Fn::")):
            return {key: self(value) for key, value in node.items()}
        ((function, args),) = node.items()
        if function == "Ref":
            assert args in self.refs, f"the moto stack has no {args}: create it in stack()"
            return self.refs[args]
        if function == "Fn::GetAtt":
            name = ".".join(args) if isinstance(args, list) else args
            assert name in self.attributes, f"the moto stack has no {name}: add it in stack()"
            return self.attributes[name]
        if function == "Fn::If":
            name, when_true, when_false = args
            return self(when_true if self.conditions[name] else when_false)
        if function == "Fn::Sub":
            text, variables = (args, {}) if isinstance(args, str) else args
            values = {key: str(self(value)) for key, value in variables.items()}

            def substitute(match: re.Match[str]) -> str:
                key = match.group(1)
                if key in values:
                    return values[key]
                if key in self.refs:
                    return self.refs[key]
                return self.attributes[key]

            return re.sub(r"\$\{([A-Za-z0-9:.]+)\}", substitute, text)
        raise AssertionError(f"unsupported intrinsic {function}")


def function_name(logical_id: str) -> str:
    return f"{STACK}-{logical_id}"


def function_arn(logical_id: str) -> str:
    return f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{function_name(logical_id)}"


MACHINE_NAME = f"{STACK}-answer"
MACHINE_ARN = f"arn:aws:states:{REGION}:{ACCOUNT}:stateMachine:{MACHINE_NAME}"
FUNCTIONS = {
    rid: resource["Properties"]
    for rid, resource in RESOURCES.items()
    if resource["Type"] == "AWS::Serverless::Function"
}
TABLES = {rid for rid, resource in RESOURCES.items() if resource["Type"] == "AWS::DynamoDB::Table"}


def function_environment(logical_id: str, resolve: Resolver) -> dict[str, str]:
    """Globals' variables merged with the function's own, as SAM deploys them."""
    variables = dict(TEMPLATE["Globals"]["Function"]["Environment"]["Variables"])
    variables |= FUNCTIONS[logical_id].get("Environment", {}).get("Variables", {})
    return {name: str(resolve(value)) for name, value in variables.items()}


# --- Lambda, in process -----------------------------------------------------------------------


@dataclass
class LambdaContext:
    """What the Python runtime passes as the context: the fields Powertools reads."""

    function_name: str
    memory_limit_in_mb: int
    invoked_function_arn: str
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


def clear_container_caches() -> None:
    for cached in (
        get_settings,
        lambda_handlers.container_deps,
        lambda_handlers.container_idempotency_store,
    ):
        cached.cache_clear()


@contextlib.contextmanager
def environment(variables: dict[str, str]) -> Iterator[None]:
    """os.environ with every CERTIQ_ variable replaced by ``variables``, restored after."""
    saved = dict(os.environ)
    for name in [name for name in os.environ if name.startswith("CERTIQ_")]:
        del os.environ[name]
    os.environ.update(variables)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


class InProcessLambda:
    """Runs moto's Lambda invocations with the real functions/<name>/app.py, in this process."""

    def __init__(self, code_dirs: dict[str, Path], harness: dict[str, str]) -> None:
        self.code_dirs = code_dirs  # function name -> its CodeUri directory
        self.harness = harness  # variables of the test process, not of the template
        self.invoked: list[str] = []
        # One invocation at a time: the environment and certiq's caches are process-wide.
        self._lock = threading.Lock()

    def invoke(self, function: LambdaFunction, event: Any) -> tuple[str, bool, str]:
        """moto's LambdaFunction._invoke_lambda: (payload, errored, logs)."""
        with self._lock:
            self.invoked.append(function.function_name)
            variables = {**function.environment_vars, **self.harness}
            context = LambdaContext(
                function_name=function.function_name,
                memory_limit_in_mb=int(function.memory_size),
                invoked_function_arn=function.function_arn,
            )
            with environment(variables):
                clear_container_caches()
                try:
                    handler = self._load(function.function_name).lambda_handler
                    return json.dumps(handler(event, context)), False, ""
                except Exception as error:
                    payload = {
                        "errorType": type(error).__name__,
                        "errorMessage": str(error),
                        "stackTrace": traceback.format_tb(error.__traceback__),
                    }
                    return json.dumps(payload), True, ""
                finally:
                    clear_container_caches()

    def _load(self, name: str) -> Any:
        """functions/<name>/app.py as a fresh module: a cold start."""
        path = self.code_dirs[name] / "app.py"
        spec = importlib.util.spec_from_file_location(f"lambda_{name.replace('-', '_')}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module


# --- the stack --------------------------------------------------------------------------------


@dataclass
class Stack:
    s3: S3Client
    dynamodb: DynamoDBClient
    kms: KMSClient
    lambda_: LambdaClient
    sfn: SFNClient
    resolve: Resolver
    runner: InProcessLambda
    search_url: str
    sequencer: Iterator[int] = field(default_factory=lambda: iter(range(1, 1_000_000)))

    @property
    def bucket(self) -> str:
        return str(self.resolve.refs["DocumentsBucket"])

    def chunks(self) -> int:
        """How many chunks of the tenant the search index holds."""
        settings = OpenSearchSettings(endpoint=self.search_url)
        index = OpenSearchIndex(
            make_client(settings, REGION),
            settings.index,
            dimension=None,
            bulk_batch=settings.bulk_batch,
            max_retries=settings.max_retries,
        )
        return index.count(TENANT)

    def table(self, logical_id: str) -> str:
        return self.resolve.refs[logical_id]

    def invoke(self, logical_id: str, event: dict[str, Any]) -> dict[str, Any]:
        """Lambda's Invoke API, RequestResponse; a function error fails the test."""
        response = self.lambda_.invoke(
            FunctionName=function_name(logical_id), Payload=json.dumps(event).encode()
        )
        payload: dict[str, Any] = json.loads(response["Payload"].read())
        assert "FunctionError" not in response, payload
        return payload

    def upload(self, key: str, data: bytes) -> dict[str, Any]:
        """put_object, then invoke the ingest function with the event S3 sends for it."""
        self.s3.put_object(Bucket=self.bucket, Key=key, Body=data)
        return self.notify_created(key)

    def notify_created(self, key: str) -> dict[str, Any]:
        """Invoke the ingest function with the ObjectCreated event of the key's latest version."""
        head = self.s3.head_object(Bucket=self.bucket, Key=key)
        event = json.loads((ROOT / "infra/events/s3_object_created.json").read_text("utf-8"))
        record = event["Records"][0]
        record["s3"]["bucket"] |= {"name": self.bucket, "arn": f"arn:aws:s3:::{self.bucket}"}
        record["s3"]["object"] = {
            "key": quote_plus(key, safe="/"),
            "size": head["ContentLength"],
            "eTag": head["ETag"].strip('"'),
            "versionId": head["VersionId"],
            "sequencer": f"{next(self.sequencer):018X}",
        }
        return self.invoke("IngestFunction", event)

    def api(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | bytes | None = None,
        query: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """An API Gateway REST proxy request to the /v1/{proxy+} route, through Lambda.

        A bytes body is sent as application/pdf, which the API's BinaryMediaTypes make API
        Gateway pass base64-encoded.
        """
        binary = isinstance(body, bytes)
        headers = {
            "Content-Type": "application/pdf" if binary else "application/json",
            "Host": "api.example.com",
        }
        if isinstance(body, bytes):
            text: str | None = base64.b64encode(body).decode("ascii")
        else:
            text = None if body is None else json.dumps(body)
        event = api_gateway_event(
            method, path, headers=headers, body=text, binary=binary, query=query
        )
        result = self.invoke("ApiFunction", event)
        answer = result.get("body") or "{}"
        if result.get("isBase64Encoded"):
            answer = base64.b64decode(answer).decode("utf-8")
        return int(result["statusCode"]), json.loads(answer)

    def execution_arn(self, question_id: str) -> str:
        return f"arn:aws:states:{REGION}:{ACCOUNT}:execution:{MACHINE_NAME}:{question_id}"

    def finish(self, question_id: str, limit_seconds: float = 120.0) -> str:
        """Waits for the question's execution to end; returns its status."""
        arn = self.execution_arn(question_id)
        deadline = time.monotonic() + limit_seconds
        while True:
            status = self.sfn.describe_execution(executionArn=arn)["status"]
            if status != "RUNNING":
                return status
            if time.monotonic() > deadline:
                raise AssertionError(f"execution {arn} still RUNNING after {limit_seconds} s")
            time.sleep(0.05)

    def entered_states(self, question_id: str) -> list[str]:
        """The states the execution entered, in order, from GetExecutionHistory."""
        events: list[Any] = []
        pages = self.sfn.get_paginator("get_execution_history")
        for page in pages.paginate(executionArn=self.execution_arn(question_id)):
            events += page["events"]
        return [
            event["stateEnteredEventDetails"]["name"]
            for event in events
            if event["type"].endswith("StateEntered")
        ]


def create_tables(dynamodb: DynamoDBClient, resolve: Resolver) -> None:
    for logical_id in sorted(TABLES):
        properties = resolve(RESOURCES[logical_id]["Properties"])
        arguments = {
            key: properties[key]
            for key in (
                "KeySchema",
                "AttributeDefinitions",
                "BillingMode",
                "GlobalSecondaryIndexes",
                "LocalSecondaryIndexes",
            )
            if key in properties
        }
        dynamodb.create_table(TableName=resolve.refs[logical_id], **arguments)
        ttl = properties.get("TimeToLiveSpecification")
        if ttl:
            dynamodb.update_time_to_live(
                TableName=resolve.refs[logical_id], TimeToLiveSpecification=ttl
            )


def create_recheck_queues(sqs: Any, refs: dict[str, str], attributes: dict[str, str]) -> None:
    """The recheck queue and its dead-letter queue, with template.yaml's attributes."""
    for logical_id in ("RecheckDeadLetterQueue", "RecheckQueue"):
        properties = RESOURCES[logical_id]["Properties"]
        queue_attributes = {
            "MessageRetentionPeriod": str(properties["MessageRetentionPeriod"]),
            "SqsManagedSseEnabled": str(properties["SqsManagedSseEnabled"]).lower(),
        }
        if "VisibilityTimeout" in properties:
            queue_attributes["VisibilityTimeout"] = str(properties["VisibilityTimeout"])
        if "RedrivePolicy" in properties:
            redrive = properties["RedrivePolicy"]
            target = redrive["deadLetterTargetArn"]["Fn::GetAtt"]
            queue_attributes["RedrivePolicy"] = json.dumps(
                {
                    "deadLetterTargetArn": attributes[".".join(target)],
                    "maxReceiveCount": redrive["maxReceiveCount"],
                }
            )
        name = f"{STACK}-{logical_id}"
        url = sqs.create_queue(QueueName=name, Attributes=queue_attributes)["QueueUrl"]
        refs[logical_id] = url
        attributes[f"{logical_id}.Arn"] = f"arn:aws:sqs:{REGION}:{ACCOUNT}:{name}"
        attributes[f"{logical_id}.QueueName"] = name


def code_zip(code_dir: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.write(code_dir / "app.py", "app.py")
    return buffer.getvalue()


@pytest.fixture
def stack(opensearch_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stack]:
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(name, "testing")
    refs = {
        "AWS::Region": REGION,
        "AWS::AccountId": ACCOUNT,
        "AWS::StackName": STACK,
        "AWS::Partition": "aws",
        "AWS::URLSuffix": "amazonaws.com",
        MACHINE_ID: MACHINE_ARN,
        **{table: f"{STACK}-{table}" for table in TABLES},
        # Parameters at their defaults, but for the ones this test chooses.
        **{name: str(spec.get("Default", "")) for name, spec in TEMPLATE["Parameters"].items()},
        **PARAMETERS,
    }
    attributes = {f"{rid}.Arn": function_arn(rid) for rid in FUNCTIONS}
    attributes[f"{MACHINE_ID}.Name"] = MACHINE_NAME
    attributes["SearchDomain.DomainEndpoint"] = DOMAIN_ENDPOINT
    with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}):
        s3 = boto3.client("s3", region_name=REGION)
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        kms = boto3.client("kms", region_name=REGION)
        key = RESOURCES["CertificateKey"]["Properties"]
        refs["CertificateKey"] = kms.create_key(KeySpec=key["KeySpec"], KeyUsage=key["KeyUsage"])[
            "KeyMetadata"
        ]["KeyId"]
        # The certificate archive as template.yaml declares it: Object Lock, compliance mode.
        archive = RESOURCES["CertificateArchiveBucket"]["Properties"]
        refs["CertificateArchiveBucket"] = f"{STACK}-certificate-archive"
        s3.create_bucket(
            Bucket=refs["CertificateArchiveBucket"],
            ObjectLockEnabledForBucket=archive["ObjectLockEnabled"],
        )
        retention = archive["ObjectLockConfiguration"]["Rule"]["DefaultRetention"]
        s3.put_object_lock_configuration(
            Bucket=refs["CertificateArchiveBucket"],
            ObjectLockConfiguration={
                "ObjectLockEnabled": archive["ObjectLockConfiguration"]["ObjectLockEnabled"],
                "Rule": {
                    "DefaultRetention": {
                        "Mode": retention["Mode"],
                        "Days": int(refs[retention["Days"]["Ref"]]),
                    }
                },
            },
        )
        create_recheck_queues(boto3.client("sqs", region_name=REGION), refs, attributes)
        resolve = Resolver(refs, attributes)
        bucket = resolve(RESOURCES["DocumentsBucket"]["Properties"]["BucketName"])
        refs["DocumentsBucket"] = bucket
        s3.create_bucket(Bucket=bucket)
        s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
        create_tables(dynamodb, resolve)

        iam = boto3.client("iam", region_name=REGION)
        role = iam.create_role(
            RoleName="certiq-role",
            AssumeRolePolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": []}),
        )["Role"]["Arn"]
        lambda_ = boto3.client("lambda", region_name=REGION)
        globals_ = TEMPLATE["Globals"]["Function"]
        code_dirs = {}
        for rid, properties in FUNCTIONS.items():
            code_dir = ROOT / properties["CodeUri"]
            code_dirs[function_name(rid)] = code_dir
            variables = function_environment(rid, resolve)
            if variables.get("CERTIQ_OPENSEARCH__ENDPOINT") == f"https://{DOMAIN_ENDPOINT}":
                variables["CERTIQ_OPENSEARCH__ENDPOINT"] = opensearch_url
            lambda_.create_function(
                FunctionName=function_name(rid),
                Runtime=properties.get("Runtime", globals_["Runtime"]),
                Architectures=properties.get("Architectures", globals_["Architectures"]),
                Handler=properties.get("Handler", globals_["Handler"]),
                Role=role,
                Code={"ZipFile": code_zip(code_dir)},
                Timeout=int(properties.get("Timeout", globals_["Timeout"])),
                MemorySize=int(properties.get("MemorySize", globals_["MemorySize"])),
                Environment={"Variables": variables},
                Publish=True,
            )
            # AutoPublishAlias: the state machine invokes the alias, as SAM deploys it.
            published = lambda_.list_versions_by_function(FunctionName=function_name(rid))
            version = max(
                (v["Version"] for v in published["Versions"] if v["Version"] != "$LATEST"), key=int
            )
            alias = lambda_.create_alias(
                FunctionName=function_name(rid),
                Name=globals_["AutoPublishAlias"],
                FunctionVersion=version,
            )
            refs[f"{rid}.Alias"] = alias["AliasArn"]

        sfn = boto3.client("stepfunctions", region_name=REGION)
        substitutions = {
            name: str(resolve(value)) for name, value in MACHINE["DefinitionSubstitutions"].items()
        }
        definition = PLACEHOLDER.sub(lambda m: substitutions[m.group(1)], ASL_TEXT)
        created = sfn.create_state_machine(
            name=MACHINE_NAME, definition=definition, roleArn=role, type=MACHINE["Type"]
        )
        assert created["stateMachineArn"] == MACHINE_ARN

        # Not in template.yaml: where this process keeps files, and lexical-only retrieval
        # (the layer ships no embedding model).
        runner = InProcessLambda(
            code_dirs,
            harness={"CERTIQ_HOME": str(tmp_path / "lambda"), "CERTIQ_EMBEDDING__PROVIDER": "none"},
        )
        monkeypatch.setattr(
            LambdaFunction,
            "_invoke_lambda",
            lambda function, event=None: runner.invoke(function, event),
        )
        yield Stack(s3, dynamodb, kms, lambda_, sfn, resolve, runner, opensearch_url)
    clear_container_caches()


@pytest.fixture
def indexed(stack: Stack) -> Stack:
    """The stack with one policy PDF ingested through the ingest function."""
    result = stack.upload("policies/data retention.pdf", build_pdf(POLICY))
    assert [d["status"] for d in result["documents"]] == ["INDEXED"]
    return stack


def ask(stack: Stack, question: str = QUESTION) -> str:
    status, accepted = stack.api("POST", "/v1/questions", {"question": question})
    assert status == 202, accepted
    return str(accepted["question_id"])


# --- the walks themselves ---------------------------------------------------------------------


def default_walk() -> list[str]:
    """From StartAt, Next after Next and every Choice's Default, to the end."""
    walk = [ASL["StartAt"]]
    while (target := transitions(STATES[walk[-1]])[:1]) and target[0] not in walk:
        walk.append(target[0])
    return walk


def test_the_main_line_is_a_successful_walk_at_least_as_long_as_the_defaults() -> None:
    # GIVEN the ASL's main line and its failure walk from the last task
    line = main_line()
    recorder = task_running("RecordFailureFunction")
    # THEN the main line starts at StartAt, ends well, never records a failure, and takes at
    # least the states that following every Default takes
    assert line[0] == ASL["StartAt"] and ends_well(STATES[line[-1]])
    assert recorder not in line
    assert len(line) >= len(default_walk()) >= 2
    # AND every step is a transition the ASL allows
    assert all(b in transitions(STATES[a]) for a, b in itertools.pairwise(line))
    # AND a failure of the last Task is recorded, then fails the execution
    walk = failure_walk(line[-1])
    assert walk[-2] == recorder and STATES[walk[-1]]["Type"] == "Fail"


# --- through moto ------------------------------------------------------------------------------


def test_a_question_runs_every_state_and_its_certificate_verifies_through_kms(
    indexed: Stack,
) -> None:
    stack = indexed
    # GIVEN a stack with a policy PDF ingested through the ingest function
    # WHEN a question is POSTed to the API function, which starts the state machine
    question_id = ask(stack)

    # THEN the execution succeeds, having entered every state of the main line, in order
    assert stack.finish(question_id) == "SUCCEEDED"
    assert stack.entered_states(question_id) == main_line()
    # AND each Task ran its own function, through Lambda
    tasks = [name for name in main_line() if STATES[name]["Type"] == "Task"]
    ran = stack.runner.invoked[stack.runner.invoked.index(function_name("ApiFunction")) + 1 :]
    expected = [PLACEHOLDER.fullmatch(STATES[name]["Resource"]) for name in tasks]
    assert ran == [function_name(m.group(1).removesuffix("Arn")) for m in expected if m]

    # AND the API reports the question COMPLETE with a cited answer and a certificate
    status, view = stack.api("GET", f"/v1/questions/{question_id}")
    assert status == 200 and view["status"] == QuestionStatus.COMPLETE.value
    response = view["response"]
    assert "35 days" in response["answer"]
    assert response["citations"] and response["citations"][0]["file_name"] == ("data retention.pdf")
    certificate_id = response["certificate_id"]

    # AND the certificate is an item of the certificates table
    item = stack.dynamodb.get_item(
        TableName=stack.table("CertificatesTable"),
        Key={"certificate_id": {"S": certificate_id}},
    )["Item"]
    assert item["question_id"] == {"S": question_id}
    certificate = Certificate.model_validate_json(item["body"]["S"])

    # AND it verifies through the KMS adapter (the stack's ECC key)
    signer = KmsSigner(stack.kms, stack.resolve.refs["CertificateKey"])
    assert check(certificate, signer).valid
    store = DynamoCertificateStore(stack.dynamodb, stack.table("CertificatesTable"))
    assert store.get(certificate_id) == certificate
    # AND through the API's verify route
    status, verdict = stack.api("POST", f"/v1/certificates/{certificate_id}/verify")
    assert status == 200 and CertificateCheck.model_validate(verdict).valid
    # AND with nothing but the public key the API publishes
    status, published = stack.api("GET", "/v1/signing-key")
    assert status == 200 and published["algorithm"] == "ecdsa-p256-sha256"
    public_key = load_public_key(published["public_key_pem"])
    assert check_with_public_key(certificate, public_key).valid

    # AND a copy is archived, locked in compliance mode: no one deletes or overwrites it
    archive = stack.resolve.refs["CertificateArchiveBucket"]
    key = f"certificates/{certificate.tenant}/{certificate_id}.json"
    archived = stack.s3.get_object(Bucket=archive, Key=key)
    assert Certificate.model_validate_json(archived["Body"].read()) == certificate
    assert archived["ObjectLockMode"] == "COMPLIANCE"
    assert archived["ObjectLockRetainUntilDate"] > datetime.now(UTC) + timedelta(days=365)
    with pytest.raises(ClientError, match="AccessDenied"):
        stack.s3.delete_object(Bucket=archive, Key=key, VersionId=archived["VersionId"])
    with pytest.raises(ClientError, match="PreconditionFailed"):
        stack.s3.put_object(Bucket=archive, Key=key, Body=b"{}", IfNoneMatch="*")
    versions = stack.s3.list_object_versions(Bucket=archive, Prefix=key)["Versions"]
    assert [v["VersionId"] for v in versions] == [archived["VersionId"]]

    # AND a certificate whose answer was rewritten in the table fails the check
    forged = certificate.model_copy(update={"answer": "Backups are kept forever."})
    assert not check(forged, signer).valid


def test_a_failing_step_is_caught_recorded_and_fails_the_execution(indexed: Stack) -> None:
    stack = indexed
    # GIVEN a stack whose certificates table is gone, so the sealing step cannot store
    stack.dynamodb.delete_table(TableName=stack.table("CertificatesTable"))
    failing = task_running("PersistFunction")

    # WHEN a question is asked
    question_id = ask(stack)

    # THEN the execution FAILED after the Catch path: up to the failing step, then the
    # failure recorder, then the Fail state
    assert stack.finish(question_id) == "FAILED"
    assert stack.entered_states(question_id) == failure_walk(failing)
    # AND the question is FAILED with the reason the step raised
    status, view = stack.api("GET", f"/v1/questions/{question_id}")
    assert status == 200 and view["status"] == QuestionStatus.FAILED.value
    # AND the reason is the error's name alone: Step Functions' Cause (Lambda's error envelope,
    # with its stack trace and /var/task paths) stays in the execution history
    assert view["reason"] == "ResourceNotFoundException: an internal error ended the question"
    assert "stackTrace" not in json.dumps(view) and "/var/task" not in json.dumps(view)


def test_a_question_that_ends_early_takes_the_choice_out(indexed: Stack) -> None:
    stack = indexed
    # GIVEN a question too short to answer
    # WHEN it is asked
    question_id = ask(stack, "backups?")

    # THEN the execution succeeds without running any step past the Choice
    assert stack.finish(question_id) == "SUCCEEDED"
    entered = stack.entered_states(question_id)
    assert entered[0] == ASL["StartAt"] and STATES[entered[-1]]["Type"] == "Succeed"
    assert all(b in transitions(STATES[a]) for a, b in itertools.pairwise(entered))
    assert len(entered) < len(main_line())
    # AND the API holds the clarification request
    status, view = stack.api("GET", f"/v1/questions/{question_id}")
    assert status == 200 and view["status"] == QuestionStatus.NEEDS_CLARIFICATION.value


def test_a_document_uploaded_through_the_api_is_ingested_and_deleted_through_it(
    stack: Stack,
) -> None:
    # GIVEN a PDF sent to the API function as a raw body, as API Gateway passes it (base64)
    status, upload = stack.api(
        "POST", "/v1/documents", build_pdf(POLICY), query={"file_name": "retention.pdf"}
    )
    # THEN it is accepted and stored in the documents bucket under the uploads prefix
    assert status == 202, upload
    key = "uploads/retention.pdf"
    assert stack.s3.head_object(Bucket=stack.bucket, Key=key)["ContentType"] == "application/pdf"

    # WHEN the bucket's ObjectCreated event reaches the ingest function
    result = stack.notify_created(key)
    # THEN the document the API named is INDEXED, and the API shows it
    assert [d["status"] for d in result["documents"]] == ["INDEXED"]
    status, record = stack.api("GET", upload["status_url"])
    assert status == 200 and record["status"] == "INDEXED"
    assert stack.chunks() == record["chunks"] > 0

    # WHEN it is deleted through the API
    status, tombstone = stack.api("DELETE", upload["status_url"])
    # THEN its record is a DELETED tombstone, its chunks are gone from the index, and the
    # original stays in the bucket behind a delete marker
    assert status == 200 and tombstone["status"] == "DELETED"
    assert stack.chunks() == 0
    versions = stack.s3.list_object_versions(Bucket=stack.bucket, Prefix=key)
    assert len(versions["Versions"]) == 1 and len(versions["DeleteMarkers"]) == 1


def test_the_api_hands_out_a_presigned_upload_to_the_bucket(stack: Stack) -> None:
    # GIVEN a request for an upload without a body
    status, upload = stack.api("POST", "/v1/documents", query={"file_name": "large.pdf"})
    # THEN the API answers with a presigned POST to the stack's bucket, for the uploads prefix
    assert status == 201, upload
    target = upload["upload"]
    assert target["url"] == f"https://{stack.bucket}.s3.amazonaws.com/"
    assert target["fields"]["key"] == "uploads/large.pdf"
