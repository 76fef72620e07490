"""One OpenSearch node on 127.0.0.1 from Maven Central's artifacts: `make opensearch`, the tests.

When to run it: to try certiq's self-hosted mode (README, "Self-hosted search") or the OpenSearch
adapter against a real engine. `make test` needs nothing from you: its fixture starts a node of
its own on a free port and stops it at the end.

    python scripts/opensearch_node.py start [--port 9200] [--heap 512m]   # waits for green
    python scripts/opensearch_node.py status
    python scripts/opensearch_node.py stop

What it does:
- resolves the minimal distribution (org.opensearch.distribution.integ-test-zip:opensearch), the
  k-NN plugin and the neural-search plugin (hybrid query) at the versions below with Maven, into
  Maven's own cache, then copies them to .opensearch/artifacts (nothing else is downloaded);
- unpacks the distribution into .opensearch/opensearch-<version> and installs both plugins there
  once;
- starts the node with its HTTP port on 127.0.0.1 (0: any free port), a heap of at most 1 GB, its
  data and logs in a new temporary folder, as an unprivileged user: OpenSearch refuses root, so
  under root it runs as the system user ``certiq-search``, created when missing;
- records the node (PID, URL, data folder) in .opensearch/node-<port>.json, waits for green, and
  ``stop`` ends it by its PID and removes its data;
- gives indices no replica by default (an index template): one node cannot hold a replica, and
  an index with one would leave the cluster yellow for good. A cluster of several nodes keeps
  OpenSearch's default of one replica (README, "Self-hosted search").

The k-NN plugin from Maven Central carries no native libraries: the lucene engine (pure Java,
what certiq's mapping uses) works, faiss and nmslib do not.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

# The newest 2.19 that runs on Java 17; plugins are published per core version (2.19.6.0).
OPENSEARCH_VERSION: Final = "2.19.6"
PLUGIN_VERSION: Final = f"{OPENSEARCH_VERSION}.0"
DISTRIBUTION: Final = (
    f"org.opensearch.distribution.integ-test-zip:opensearch:{OPENSEARCH_VERSION}:zip"
)
# Installed in this order: neural-search extends k-NN.
PLUGINS: Final = (
    ("opensearch-knn", f"org.opensearch.plugin:opensearch-knn:{PLUGIN_VERSION}:zip"),
    ("opensearch-neural-search", f"org.opensearch.plugin:neural-search:{PLUGIN_VERSION}:zip"),
)
# The minimal distribution carries one module (transport-netty4). These are published as plain
# jars, so they are assembled into modules/ here with a descriptor: k-NN needs lang-painless,
# certiq's analyzer analysis-common (stemmer, pattern_replace), deleting a document reindex
# (_delete_by_query). (folder, Maven artifact, plugin class, plugins it extends, policy)
MODULES: Final = (
    (
        "lang-painless",
        "lang-painless",
        "org.opensearch.painless.PainlessPlugin",
        "",
        # Painless compiles scripts into classes of its own.
        'grant {\n  permission java.lang.RuntimePermission "createClassLoader";\n'
        '  permission java.lang.RuntimePermission "getClassLoader";\n};\n',
    ),
    (
        "analysis-common",
        "analysis-common",
        "org.opensearch.analysis.common.CommonAnalysisPlugin",
        "lang-painless",
        "",
    ),
    ("reindex", "reindex-client", "org.opensearch.index.reindex.ReindexPlugin", "", ""),
)
ROOT: Final = Path(__file__).resolve().parent.parent
WORK_DIR: Final = ROOT / ".opensearch"
SERVICE_USER: Final = "certiq-search"
MAX_HEAP_MB: Final = 1024
DEFAULT_HEAP: Final = "512m"
GREEN_TIMEOUT_S: Final = 240.0
SINGLE_NODE_TEMPLATE: Final = {
    "index_patterns": ["*"],
    "priority": 0,
    "template": {"settings": {"number_of_replicas": 0}},
}


class NodeError(RuntimeError):
    """The node could not be resolved, installed or started; the message says why."""


@dataclass(frozen=True)
class Node:
    """A started node: where it answers and what to remove when it stops."""

    pid: int
    url: str
    port: int
    data_dir: str
    log_file: str

    @property
    def state_file(self) -> Path:
        return WORK_DIR / f"node-{self.port}.json"


def tools_missing() -> str | None:
    """Why a node cannot be started on this machine (no Java or no Maven), or None."""
    missing = [tool for tool in ("java", "mvn") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not found on PATH: OpenSearch needs Java 17 and Maven"
    return None


def heap_megabytes(heap: str) -> int:
    """``512m`` or ``1g`` in megabytes; refuses more than MAX_HEAP_MB."""
    units = {"m": 1, "g": 1024}
    suffix = heap[-1:].lower()
    if suffix not in units or not heap[:-1].isdigit():
        raise NodeError(f"heap must look like 512m or 1g, got {heap!r}")
    megabytes = int(heap[:-1]) * units[suffix]
    if not 128 <= megabytes <= MAX_HEAP_MB:
        raise NodeError(f"heap must be 128m to {MAX_HEAP_MB}m, got {heap}")
    return megabytes


def resolve_artifacts() -> dict[str, Path]:
    """The distribution's and plugins' zips, resolved by Maven and copied out of its cache."""
    target = WORK_DIR / "artifacts"
    target.mkdir(parents=True, exist_ok=True)
    wanted = {"distribution": DISTRIBUTION, **dict(PLUGINS)}
    found: dict[str, Path] = {}
    for name, coordinates in wanted.items():
        _, artifact, version, packaging = coordinates.split(":")
        path = target / f"{artifact}-{version}.{packaging}"
        if not path.exists():
            _run(
                [
                    "mvn",
                    "--batch-mode",
                    "--quiet",
                    "dependency:copy",
                    f"-Dartifact={coordinates}",
                    f"-DoutputDirectory={target}",
                ],
                f"Maven could not resolve {coordinates}",
            )
        if not path.exists():
            raise NodeError(f"Maven resolved {coordinates} but {path} is missing")
        found[name] = path
    return found


def install() -> Path:
    """The unpacked distribution with both plugins installed (done once)."""
    home = WORK_DIR / f"opensearch-{OPENSEARCH_VERSION}"
    stamp = home / ".certiq-installed"
    if stamp.exists():
        return home
    artifacts = resolve_artifacts()
    if home.exists():
        shutil.rmtree(home)
    with zipfile.ZipFile(artifacts["distribution"]) as archive:
        archive.extractall(WORK_DIR)
    for folder in ("bin", "jdk/bin", "jdk/lib"):
        for path in (home / folder).glob("*"):
            if path.is_file():
                path.chmod(0o755)
    for folder, artifact, classname, extends, policy in MODULES:
        _assemble_module(home, folder, artifact, classname, extends, policy)
    for name, _ in PLUGINS:
        _run(
            [
                str(home / "bin" / "opensearch-plugin"),
                "install",
                "--batch",
                artifacts[name].as_uri(),
            ],
            f"could not install the plugin {name}",
            env=_java_env(),
        )
    stamp.write_text(OPENSEARCH_VERSION + "\n", encoding="utf-8")
    return home


def start(port: int = 9200, heap: str = DEFAULT_HEAP, data_dir: Path | None = None) -> Node:
    """Starts a node on 127.0.0.1:port (0: any free port) and returns it once green.

    ``data_dir``: the folder of a node stopped with ``keep_data`` (a restart); default a new one.
    """
    heap_mb = heap_megabytes(heap)
    reason = tools_missing()
    if reason:
        raise NodeError(reason)
    home = install()
    http_port = port or _free_port()
    if _answers(f"http://127.0.0.1:{http_port}"):
        raise NodeError(f"port {http_port} already answers HTTP: stop that server or pick --port")
    if data_dir is None:
        data_dir = Path(tempfile.mkdtemp(prefix="certiq-opensearch-"))
    (data_dir / "data").mkdir(exist_ok=True)
    (data_dir / "logs").mkdir(exist_ok=True)
    log_file = data_dir / "node.log"
    user = _service_user()
    if user is not None:
        _chown_tree(data_dir, user)
        _chown_tree(home, user)
    env = _java_env() | {"OPENSEARCH_JAVA_OPTS": f"-Xms{heap_mb}m -Xmx{heap_mb}m"}
    settings = {
        "discovery.type": "single-node",
        "network.host": "127.0.0.1",
        "http.port": str(http_port),
        "transport.port": str(_free_port()),
        "path.data": str(data_dir / "data"),
        "path.logs": str(data_dir / "logs"),
        "cluster.name": f"certiq-{http_port}",
        # A full disk elsewhere on the machine must not turn the test index read-only.
        "cluster.routing.allocation.disk.threshold_enabled": "false",
    }
    command = [str(home / "bin" / "opensearch")] + [f"-E{k}={v}" for k, v in settings.items()]
    with log_file.open("wb") as log:
        process = subprocess.Popen(
            command,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            cwd=data_dir,
            user=user,
            group=user,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{http_port}"
    node = Node(process.pid, url, http_port, str(data_dir), str(log_file))
    node.state_file.write_text(json.dumps(asdict(node), indent=2) + "\n", encoding="utf-8")
    try:
        _wait_for_green(node, process)
    except BaseException:
        stop(node)
        raise
    return node


def stop(node: Node, timeout: float = 30.0, keep_data: bool = False) -> None:
    """Ends the node by its PID (TERM, then KILL), and removes its state and, unless
    ``keep_data``, its data."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(node.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _alive(node.pid):
        time.sleep(0.2)
    if _alive(node.pid):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(node.pid, signal.SIGKILL)
    if not keep_data:
        shutil.rmtree(node.data_dir, ignore_errors=True)
    node.state_file.unlink(missing_ok=True)


def describe(url: str) -> str:
    """``OpenSearch 2.19.1 with opensearch-knn 2.19.1.0, ...``: the node's own word."""
    version = _get_json(f"{url}/")["version"]["number"]
    plugins = _get_json(f"{url}/_cat/plugins?format=json")
    named = ", ".join(sorted(f"{row['component']} {row['version']}" for row in plugins))
    return f"OpenSearch {version} with {named or 'no plugins'}"


def recorded_nodes() -> list[Node]:
    """The nodes this checkout started and has not stopped."""
    nodes = []
    for path in sorted(WORK_DIR.glob("node-*.json")):
        nodes.append(Node(**json.loads(path.read_text(encoding="utf-8"))))
    return nodes


# --- internals ----------------------------------------------------------------------------


def _assemble_module(
    home: Path, name: str, artifact: str, classname: str, extends: str, policy: str
) -> None:
    """modules/<name>: the module's jar and its runtime dependencies (Maven), and a descriptor.

    The core server jar and everything already in lib/ (at any version) are left out: a class
    on two paths is "jar hell" to OpenSearch.
    """
    folder = home / "modules" / name
    folder.mkdir(parents=True, exist_ok=True)
    pom = WORK_DIR / f"{name}.pom.xml"
    pom.write_text(
        f"""<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>certiq.opensearch</groupId><artifactId>{name}-module</artifactId><version>1</version>
  <dependencies><dependency>
    <groupId>org.opensearch.plugin</groupId><artifactId>{artifact}</artifactId>
    <version>{OPENSEARCH_VERSION}</version>
    <exclusions><exclusion><groupId>org.opensearch</groupId><artifactId>opensearch</artifactId>
    </exclusion></exclusions>
  </dependency></dependencies>
</project>
""",
        encoding="utf-8",
    )
    _run(
        [
            "mvn",
            "--batch-mode",
            "--quiet",
            "-f",
            str(pom),
            "dependency:copy-dependencies",
            "-DincludeScope=runtime",
            f"-DoutputDirectory={folder}",
        ],
        f"Maven could not resolve the {name} module",
    )
    in_lib = {_artifact_name(jar.name) for jar in (home / "lib").glob("*.jar")}
    for jar in folder.glob("*.jar"):
        if _artifact_name(jar.name) in in_lib:
            jar.unlink()
    descriptor = {
        "description": f"{name}, assembled from Maven Central by certiq",
        "version": OPENSEARCH_VERSION,
        "name": name,
        "classname": classname,
        "java.version": "11",
        "opensearch.version": OPENSEARCH_VERSION,
        "extended.plugins": extends,
        "has.native.controller": "false",
    }
    lines = "".join(f"{key}={value}\n" for key, value in descriptor.items())
    (folder / "plugin-descriptor.properties").write_text(lines, encoding="utf-8")
    if policy:
        (folder / "plugin-security.policy").write_text(policy, encoding="utf-8")


def _artifact_name(jar_name: str) -> str:
    """``jackson-core`` of ``jackson-core-2.18.8.jar``."""
    return re.sub(r"-[0-9][^-]*\.jar$", "", jar_name)


def _run(command: list[str], failure: str, env: dict[str, str] | None = None) -> None:
    result = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if result.returncode != 0:
        tail = (result.stdout + result.stderr).strip().splitlines()[-15:]
        raise NodeError(failure + ":\n" + "\n".join(tail))


def _java_env() -> dict[str, str]:
    """The environment with OPENSEARCH_JAVA_HOME set to the machine's Java 17."""
    env = dict(os.environ)
    java = shutil.which("java")
    if java and "OPENSEARCH_JAVA_HOME" not in env:
        env["OPENSEARCH_JAVA_HOME"] = str(Path(java).resolve().parent.parent)
    return env


def _service_user() -> str | None:
    """The user to run as: certiq-search under root (created once), else the caller."""
    if os.geteuid() != 0:
        return None
    try:
        import pwd

        pwd.getpwnam(SERVICE_USER)
    except KeyError:
        _run(
            [
                "useradd",
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                SERVICE_USER,
            ],
            f"could not create the unprivileged user {SERVICE_USER}",
        )
    return SERVICE_USER


def _chown_tree(path: Path, user: str) -> None:
    shutil.chown(path, user, user)
    for folder, folders, files in os.walk(path):
        for name in folders + files:
            shutil.chown(os.path.join(folder, name), user, user)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _alive(pid: int) -> bool:
    try:
        waited, _ = os.waitpid(pid, os.WNOHANG)
        if waited == pid:
            return False
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _get_json(url: str, timeout: float = 10.0) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.loads(response.read())


def _put_json(url: str, body: object) -> Any:
    data = json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url, data=data, method="PUT")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def _answers(url: str) -> bool:
    try:
        _get_json(url, timeout=1.0)
    except (OSError, ValueError):
        return False
    return True


def _wait_for_green(node: Node, process: subprocess.Popen[bytes]) -> None:
    """Green; or yellow once the template is in and only replicas of an index made before it
    (with OpenSearch's default of one) are left unassigned: all the data is there."""
    deadline = time.monotonic() + GREEN_TIMEOUT_S
    health = f"{node.url}/_cluster/health?wait_for_status=yellow&timeout=5s"
    templated = False
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise NodeError(f"OpenSearch exited with {process.returncode}:\n{_log_tail(node)}")
        try:
            status = _get_json(health)
            if status["status"] in ("green", "yellow") and not templated:
                _put_json(f"{node.url}/_index_template/certiq-single-node", SINGLE_NODE_TEMPLATE)
                templated = True
            if status["status"] == "green" or (
                status["status"] == "yellow" and status["initializing_shards"] == 0
            ):
                return
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.5)
    raise NodeError(f"OpenSearch was not green after {GREEN_TIMEOUT_S:.0f} s:\n{_log_tail(node)}")


def _log_tail(node: Node, lines: int = 20) -> str:
    try:
        text = Path(node.log_file).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    starting = commands.add_parser("start", help="start a node and wait for green")
    starting.add_argument("--port", type=int, default=9200, help="HTTP port; 0: any free one")
    starting.add_argument("--heap", default=DEFAULT_HEAP, help="JVM heap, at most 1g")
    commands.add_parser("status", help="the nodes started here and what they run")
    commands.add_parser("stop", help="stop every node started here")
    args = parser.parse_args(argv)
    try:
        if args.command == "start":
            node = start(args.port, args.heap)
            print(f"{describe(node.url)} is green at {node.url} (PID {node.pid})")
            print(f"Use it: export CERTIQ_OPENSEARCH__ENDPOINT={node.url}")
        elif args.command == "status":
            for node in recorded_nodes():
                state = describe(node.url) if _answers(node.url) else "not answering"
                print(f"{node.url} (PID {node.pid}): {state}")
        else:
            for node in recorded_nodes():
                stop(node)
                print(f"stopped {node.url} (PID {node.pid})")
    except NodeError as error:
        print(f"opensearch: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
