"""``caas-tui mcp`` end to end: a real subprocess, the SDK's stdio client, protocol-only stdout."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.test_mcp_tools import make_project

TIMEOUT = 180  # seconds for the whole session, index build included (2 shared cores)


async def test_stdio_server_builds_the_index_and_answers(tmp_path: Path) -> None:
    root = make_project(tmp_path / "proj")
    index_dir = tmp_path / "index"
    stderr_log = tmp_path / "stderr.log"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "caas_tui", "mcp", "--root", str(root), "--index-dir", str(index_dir)],
        cwd=str(tmp_path),
    )
    # Anything on stdout that is not a JSON-RPC message reaches the client as an exception.
    stray: list[Exception] = []

    async def on_message(message: object) -> None:
        if isinstance(message, Exception):
            stray.append(message)

    with stderr_log.open("w", encoding="utf-8") as errlog, anyio.fail_after(TIMEOUT):
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, message_handler=on_message) as session,
        ):
            await session.initialize()
            names = {t.name for t in (await session.list_tools()).tools}
            assert names == {"search", "read_span", "find_symbol", "related", "review_claim"}

            found = await session.call_tool("search", {"query": "remove_body", "k": 3})
            assert not found.is_error and found.structured_content is not None
            first = found.structured_content["hits"][0]
            assert first["symbol"] == "pkg.world.World.remove_body"

            span = await session.call_tool(
                "read_span", {"path": first["path"], "start_line": first["start_line"],
                              "end_line": first["end_line"]}
            )
            assert not span.is_error and span.structured_content is not None
            assert "def remove_body" in span.structured_content["text"]

            outside = await session.call_tool("read_span", {"path": "../x", "start_line": 1, "end_line": 1})
            assert outside.is_error and "outside the project root" in outside.content[0].text  # type: ignore[union-attr]

    assert not stray, f"non-protocol output on stdout: {stray!r}"
    assert list(index_dir.rglob("manifest.json")), "the index was not built"
    log = stderr_log.read_text(encoding="utf-8")
    assert "index ready" in log and "serving MCP on stdio" in log


def test_a_bad_root_is_one_line_on_stderr(tmp_path: Path) -> None:
    res = subprocess.run(
        [sys.executable, "-m", "caas_tui", "mcp", "--root", str(tmp_path / "nope")],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL, check=False,
    )
    assert res.returncode == 2 and res.stdout == ""
    assert "nope" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("flag", ["--max-output-chars=10", "--snippet-chars=5"])
def test_budget_flags_are_checked(flag: str, tmp_path: Path) -> None:
    res = subprocess.run(
        [sys.executable, "-m", "caas_tui", "mcp", "--root", str(tmp_path), flag],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL, check=False,
    )
    assert res.returncode == 2 and res.stdout == "" and "must be at least" in res.stderr


def test_stray_output_while_the_index_opens_goes_to_stderr() -> None:
    """Python prints and C-level writes to fd 1 both land on stderr inside the guard."""
    code = textwrap.dedent("""
        import os, sys
        from caas_tui.mcp_server.server import stdout_to_stderr
        with stdout_to_stderr():
            print("from python")
            os.write(1, b"from C\\n")
        print("protocol")
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert res.returncode == 0, res.stderr
    assert res.stdout == "protocol\n"
    assert "from python" in res.stderr and "from C" in res.stderr
