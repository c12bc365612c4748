"""The Claude reviewer through each provider: the request each SDK client sends (URL path,
headers, body) checked on an httpx2 mock transport, a real review over a real index through
each, and ``review --reviewer claude --base-url`` end to end against a local HTTP server
that speaks the Messages API (the network edge is the only fake)."""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx2
import pytest

from caas_tui.cli.main import main
from caas_tui.config import Config, load_config
from caas_tui.errors import ConfigError, ReviewError
from caas_tui.models import Claim
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claude import ClaudeReviewer
from caas_tui.review.claude.client import LOCAL_KEY, make_client
from caas_tui.review.providers import credentials_problem
from caas_tui.review.select import make_reviewer
from tests.conftest import write

MODEL = "claude-haiku-4-5"
CREDENTIAL_ENV = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "AWS_BEARER_TOKEN_BEDROCK",
                  "ANTHROPIC_BEDROCK_BASE_URL", "ANTHROPIC_VERTEX_BASE_URL", "ANTHROPIC_VERTEX_PROJECT_ID")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in CREDENTIAL_ENV:
        monkeypatch.delenv(name, raising=False)


def answer(body: dict[str, Any]) -> dict[str, Any]:
    """A Messages API response submitting one consistent verdict on pkg/mod.py:1-3."""
    submit = {"verdict": "consistent", "rationale": "greet is defined at pkg/mod.py:1.",
              "evidence": [{"path": "pkg/mod.py", "start_line": 1, "end_line": 3}], "fix": None}
    return {
        "id": "msg_1", "type": "message", "role": "assistant", "model": body.get("model", MODEL),
        "content": [{"type": "tool_use", "id": "tu_1", "name": "submit_verdict", "input": submit}],
        "stop_reason": "tool_use", "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0,
                  "cache_read_input_tokens": 0},
    }


class Recorder:
    def __init__(self) -> None:
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        return httpx2.Response(200, json=answer(json.loads(request.content)))

    def http(self) -> httpx2.Client:
        return httpx2.Client(transport=httpx2.MockTransport(self))


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write(root, "pkg/mod.py", 'def greet(name: str) -> str:\n    """Return a greeting."""\n    return "hi " + name\n')
    write(root, "docs/guide.md", "# Guide\n\nCall `greet(name)` to get a greeting.\n")
    return root


def review_one(project: Path, client: Any) -> Any:
    claim = Claim("g1", "docs/guide.md", 3, 3, "Call `greet(name)` to get a greeting.", "prose", ("greet",))
    engine = Engine.open(project)
    try:
        [verdict] = ClaudeReviewer(client, model=MODEL, max_tokens=1234, sleep=lambda _s: None).review([claim], engine)
    finally:
        engine.close()
    return verdict


def test_anthropic_with_base_url_sends_messages_to_the_local_server(project: Path) -> None:
    rec = Recorder()
    v = review_one(project, make_client("anthropic", base_url="http://localhost:11434", http_client=rec.http()))
    assert v.verdict == "consistent" and [(e.path, e.start_line) for e in v.evidence] == [("pkg/mod.py", 1)]
    req = rec.requests[0]
    assert (req.method, str(req.url)) == ("POST", "http://localhost:11434/v1/messages")
    assert req.headers["authorization"] == f"Bearer {LOCAL_KEY}" and "anthropic-version" in req.headers
    body = json.loads(req.content)
    assert body["model"] == MODEL and body["max_tokens"] == 1234
    assert "submit_verdict" in [t["name"] for t in body["tools"]]


def test_anthropic_base_url_from_the_environment_and_real_key(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://proxy.internal:8080/anthropic")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-proxy-key-0123456789")
    rec = Recorder()
    review_one(project, make_client("anthropic", http_client=rec.http()))
    req = rec.requests[0]
    assert str(req.url) == "http://proxy.internal:8080/anthropic/v1/messages"
    assert req.headers["authorization"] == "Bearer sk-ant-proxy-key-0123456789"


def test_bedrock_request_shape(project: Path) -> None:
    rec = Recorder()
    client = make_client("bedrock", api_key="bedrock-token", aws_region="eu-west-1", http_client=rec.http())
    assert review_one(project, client).verdict == "consistent"
    req = rec.requests[0]
    assert str(req.url) == f"https://bedrock-runtime.eu-west-1.amazonaws.com/model/{MODEL}/invoke"
    assert req.headers["authorization"] == "Bearer bedrock-token"
    body = json.loads(req.content)
    assert body["anthropic_version"] and "model" not in body  # the model is in the path, the version in the body
    assert body["max_tokens"] == 1234 and body["tools"]


def test_vertex_request_shape(project: Path) -> None:
    rec = Recorder()
    client = make_client("vertex", region="us-east5", project_id="my-proj", access_token="ya29.token",
                         http_client=rec.http())
    assert review_one(project, client).verdict == "consistent"
    req = rec.requests[0]
    assert str(req.url) == (f"https://us-east5-aiplatform.googleapis.com/v1/projects/my-proj/locations/us-east5/"
                            f"publishers/anthropic/models/{MODEL}:rawPredict")
    assert req.headers["authorization"] == "Bearer ya29.token"
    body = json.loads(req.content)
    assert body["anthropic_version"] and "model" not in body and body["max_tokens"] == 1234


def test_config_keys_and_missing_credentials(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(project, "caas.toml", '[review]\nprovider = "bedrock"\nbase_url = "http://gw:9000"\nmodel = "m1"\n'
                                "max_tokens = 2048\n")
    cfg = load_config(project)
    assert (cfg.review_provider, cfg.review_base_url, cfg.review_model, cfg.review_max_tokens) == (
        "bedrock", "http://gw:9000", "m1", 2048)
    write(project, "caas.toml", '[review]\nprovider = "azure"\n')
    with pytest.raises(ConfigError, match="review.provider must be one of anthropic, bedrock, vertex"):
        load_config(project)
    assert credentials_problem("anthropic", None) == "ANTHROPIC_API_KEY is not set"
    assert credentials_problem("anthropic", "http://localhost:11434") is None
    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", "t")
    assert credentials_problem("bedrock", None) is None
    monkeypatch.delenv("AWS_BEARER_TOKEN_BEDROCK")
    # without the SDK extras (not installed here) the reason names the extra, in one line
    for provider, extra in (("bedrock", "anthropic[bedrock]"), ("vertex", "anthropic[vertex]")):
        problem = credentials_problem(provider, None)
        if problem is None:
            pytest.skip(f"the {extra} extra is installed here")
        assert extra in problem and "\n" not in problem
        with pytest.raises(ReviewError, match=r"pip install"):
            make_client(provider)
        reviewer, warning = make_reviewer("claude", Config(root=project, review_provider=provider))
        assert reviewer.name == "static" and warning == f"{problem}; using the static reviewer"


def test_from_env_uses_provider_base_url_and_max_tokens(project: Path) -> None:
    cfg = Config(root=project, review_base_url="http://127.0.0.1:1", review_model="local-model", review_max_tokens=777)
    rev = ClaudeReviewer.from_env(cfg)
    assert (rev.model, rev.max_tokens) == ("local-model", 777)


class _MessagesAPI(BaseHTTPRequestHandler):
    seen: list[tuple[str, dict[str, str], dict[str, Any]]] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        self.seen.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
        payload = json.dumps(answer(body)).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *_args: Any) -> None:
        pass


def test_cli_reviewer_claude_with_base_url_and_model(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _MessagesAPI)
    _MessagesAPI.seen = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        code = main(["review", "--root", str(project), "--reviewer", "claude", "--base-url", url,
                     "--reviewer-model", "qwen-local", "--json", "docs/guide.md"])
    finally:
        server.shutdown()
        server.server_close()
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reviewer"] == "claude" and [c["verdict"] for c in out["claims"]] == ["consistent"]
    path, headers, body = _MessagesAPI.seen[0]
    assert path == "/v1/messages" and headers["authorization"] == f"Bearer {LOCAL_KEY}"
    assert body["model"] == "qwen-local" and body["max_tokens"] == 4096


@pytest.mark.skipif(shutil.which("ollama") is None and shutil.which("llama-server") is None,
                    reason="no Anthropic-compatible local server (ollama / llama-server) and small model installable "
                           "from the package registries here")
def test_real_local_model_tool_loop(project: Path, capsys: pytest.CaptureFixture[str]) -> None:  # pragma: no cover
    server = shutil.which("ollama")
    if server is None:
        pytest.skip("only llama-server found: it needs a GGUF model file, none ships in a registry package here")
    models = subprocess.run([server, "list"], capture_output=True, text=True, timeout=30, check=False).stdout
    names = [line.split()[0] for line in models.splitlines()[1:] if line.strip()]
    if not names:
        pytest.skip("ollama has no model pulled")
    code = main(["review", "--root", str(project), "--reviewer", "claude", "--base-url", "http://localhost:11434",
                 "--reviewer-model", names[0], "--json", "docs/guide.md"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["reviewer"] == "claude"
