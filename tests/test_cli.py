"""The command line as a user meets it: formats, bad input, exit codes, never a traceback."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys

import pytest

from pagesieve.cli import main


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """Run ``python -m pagesieve.cli`` in a subprocess, as the console script would."""
    return subprocess.run(
        [sys.executable, "-m", "pagesieve.cli", *args],
        input=stdin,
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def test_extract_text(example_page):
    result = run_cli("extract", str(example_page))
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode("utf-8")
    assert "Lower air pressure lets gas expand faster" in out
    assert "Traceback" not in result.stderr.decode()


def test_extract_json_from_stdin(example_page):
    result = run_cli("extract", "-", "--format", "json", "--url", "https://hillkitchen.example/a/", stdin=example_page.read_bytes())
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["title"].startswith("Sourdough at Altitude")
    assert data["url"] == "https://hillkitchen.example/a/"
    for key in ("html", "text", "markdown", "byline", "published", "site_name", "lead_image", "language", "content_ids", "noise_ids"):
        assert key in data


def test_a_page_without_text_says_so_on_stderr(example_page, datasets_dir, tmp_path):
    # wcxb_dev/4145: a Discourse thread whose posts its scripts fill in; the HTML has none
    shell = tmp_path / "4145.html"
    shell.write_bytes(gzip.decompress((datasets_dir / "wcxb_dev" / "pages" / "4145.html.gz").read_bytes()))
    result = run_cli("extract", str(shell))
    assert result.returncode == 0 and result.stdout.strip() == b""
    assert "no article text found" in result.stderr.decode()
    assert "no article text" not in run_cli("extract", str(example_page)).stderr.decode()


@pytest.mark.parametrize("fmt, marker", [("html", "<div>"), ("markdown", "# Sourdough at Altitude")])
def test_extract_other_formats(example_page, capsys, fmt, marker):
    assert main(["extract", str(example_page), "--format", fmt]) == 0
    assert marker in capsys.readouterr().out


@pytest.mark.parametrize(
    "payload, code, message",
    [
        (b"", 3, "empty"),
        (b"   \n\t ", 3, "empty"),
        (bytes(range(256)) * 64, 3, "binary"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 100, 3, "binary"),
    ],
)
def test_bad_input_gets_a_clear_error(payload, code, message):
    result = run_cli("extract", "-", stdin=payload)
    assert result.returncode == code
    err = result.stderr.decode()
    assert message in err and "Traceback" not in err


def test_oversized_page_is_refused(tmp_path):
    big = tmp_path / "big.html"
    with big.open("wb") as fh:
        fh.write(b"<html><body>")
        chunk = b"<p>" + b"word " * 2000 + b"</p>\n"
        while fh.tell() < 50 * 1024 * 1024:
            fh.write(chunk)
        fh.write(b"</body></html>")
    result = run_cli("extract", str(big))
    assert result.returncode == 3
    assert "MiB" in result.stderr.decode() and "Traceback" not in result.stderr.decode()


def test_missing_file_and_folder(tmp_path):
    result = run_cli("extract", str(tmp_path / "nope.html"))
    assert result.returncode == 4 and "no such file" in result.stderr.decode()
    result = run_cli("extract", str(tmp_path))
    assert result.returncode == 4 and "folder" in result.stderr.decode()


def test_deep_nesting_still_gets_an_answer(tmp_path):
    page = tmp_path / "deep.html"
    page.write_text("<html><body><p>Shallow text that a reader wants to keep, long enough to count.</p>" + "<div>" * 100_000 + "deep" + "</div>" * 100_000 + "</body></html>")
    result = run_cli("extract", str(page))
    assert result.returncode == 0, result.stderr
    assert "Shallow text" in result.stdout.decode()
    assert "nesting" in result.stderr.decode()  # the cut is reported as a warning


def test_wrong_declared_charset_is_not_trusted(tmp_path):
    # Declared Shift_JIS, really UTF-8: the strict decode fails and UTF-8 wins.
    text = "<html><head><meta charset='shift_jis'></head><body><p>Crème brûlée, naïve café — très bien.</p></body></html>"
    page = tmp_path / "wrong.html"
    page.write_bytes(text.encode("utf-8"))
    result = run_cli("extract", str(page))
    assert result.returncode == 0
    assert "Crème brûlée" in result.stdout.decode("utf-8")


def test_bad_model_file(tmp_path, example_page):
    bogus = tmp_path / "model.skops"
    bogus.write_bytes(b"not a zip file")
    result = run_cli("extract", str(example_page), "--model", str(bogus))
    assert result.returncode == 5 and "could not be read" in result.stderr.decode()


def test_usage_error_exit_code():
    result = run_cli("extract")
    assert result.returncode == 2


def test_extract_explain_prints_the_removal_log(example_page):
    """``extract --explain``: one line per removed block (block, text start, stage, rule,
    evidence), and the same log as JSON with ``--json``."""
    result = run_cli("extract", str(example_page), "--explain", "--url", "https://hillkitchen.example/posts/sourdough-altitude/")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode("utf-8").splitlines()
    assert lines[0].split() == ["block", "tag", "text", "stage", "rule", "evidence"]
    by_text = {line.split("“")[1].split("”")[0]: line for line in lines[1:]}
    assert "Lower air pressure" not in result.stdout.decode("utf-8")  # the article is not in the log
    assert by_text["Recipes"].split()[:2] == ["4", "li"] and by_text["Recipes"].split()[3:6] == ["classifier", "svm-sure-noise", "score"]
    assert "classifier" in by_text["Tried this at 1,800 m and it worked. Th…"]
    assert "byline-in-header" in by_text["By Marta Quispe · 14 March 2026"]
    assert "removed-tag" in by_text["Go"] and by_text["Go"].split()[0] == "-"
    data = json.loads(run_cli("extract", str(example_page), "--explain", "--json").stdout)
    assert data["title"].startswith("Sourdough at Altitude")
    entries = {e["text"]: e for e in data["removed"]}
    recipes = entries["Recipes"]
    assert (recipes["tag"], recipes["stage"], recipes["rule"]) == ("li", "classifier", "svm-sure-noise")
    assert recipes["evidence"]["score"] < recipes["evidence"]["cut"] == -1.0 and isinstance(recipes["block"], int)
    assert entries["The Hill Kitchen"]["rule"] == "context" and set(entries["The Hill Kitchen"]["evidence"]) == {"score", "cut", "svm"}
    assert len(data["removed"]) == len(lines) - 1
    refused = run_cli("extract", str(example_page), "--json")
    assert refused.returncode == 2 and b"--json goes with --explain" in refused.stderr


def test_extract_explain_honours_format_json(example_page):
    """``--explain --format json`` is the removal log as JSON, the same as ``--explain --json``
    (``--format json`` is how ``extract`` asks for JSON); html and markdown are refused, clearly."""
    url = "https://hillkitchen.example/posts/sourdough-altitude/"
    result = run_cli("extract", str(example_page), "--explain", "--format", "json", "--url", url)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data == json.loads(run_cli("extract", str(example_page), "--explain", "--json", "--url", url).stdout)
    assert data["url"] == url and data["removed"] and {"block", "text", "stage", "rule", "evidence"} <= set(data["removed"][0])
    for fmt in ("markdown", "html"):
        refused = run_cli("extract", str(example_page), "--explain", "--format", fmt)
        assert refused.returncode == 2, refused.stderr
        assert f"not as {fmt}".encode() in refused.stderr and b"Traceback" not in refused.stderr


def test_a_command_imports_only_its_own_module():
    """``pagesieve batch`` does not pay for the library's index and the other commands' imports
    (pagesieve.cli.make_parser); ``--help`` still lists every command."""
    import subprocess
    import sys

    code = ("import sys, contextlib, io\n"
            "from pagesieve.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            "    try:\n"
            "        main(sys.argv[1:])\n"
            "    except SystemExit:\n"
            "        pass\n"
            "print(sorted(m for m in ('pagesieve.library', 'pagesieve.crawl.cli', 'pagesieve.extract_cli') if m in sys.modules))\n"
            "print('install-host' in out.getvalue() and 'extract' in out.getvalue())\n")
    batch = subprocess.run([sys.executable, "-c", code, "batch", "--help"], capture_output=True, text=True, timeout=120)
    assert batch.stdout.splitlines() == ["['pagesieve.crawl.cli']", "False"], batch.stderr
    top = subprocess.run([sys.executable, "-c", code, "--help"], capture_output=True, text=True, timeout=120)
    assert top.stdout.splitlines() == ["[]", "True"], top.stderr


def test_local_cluster_forks_on_linux_unless_dask_is_told_otherwise(monkeypatch):
    import sys

    from pagesieve.crawl.cluster import START_METHOD_ENV, worker_start_method

    monkeypatch.delenv(START_METHOD_ENV, raising=False)
    assert worker_start_method() == ("fork" if sys.platform.startswith("linux") else None)
    monkeypatch.setenv(START_METHOD_ENV, "spawn")
    assert worker_start_method() is None
