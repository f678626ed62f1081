"""The import graph of host/ and dev/ (tools/import_graph.py, read with ast): no import circles in either
package (function-level imports count), the user package never imports the developers' package,
and no module imports another module's private names."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "tools" / "import_graph.py"


def _graph():
    """tools/import_graph.py as a module (tools/ is not a package)."""
    if "import_graph" not in sys.modules:
        spec = importlib.util.spec_from_file_location("import_graph", TOOL)
        module = importlib.util.module_from_spec(spec)
        sys.modules["import_graph"] = module  # its dataclasses look their module up there
        spec.loader.exec_module(module)
    return sys.modules["import_graph"]


def test_the_user_package_never_imports_the_developers_package():
    facts = _graph().analyse(["pagesieve", "pagesieve_dev"], forbid=[("pagesieve", "pagesieve_dev")])
    assert any(name.startswith("pagesieve_dev.evaluation") for name, _ in facts["modules"])  # both were read
    assert facts["forbidden"] == []


def test_no_import_circles_and_no_private_names_across_modules():
    facts = _graph().analyse(["pagesieve", "pagesieve_dev"])
    assert facts["circles"] == []
    assert facts["private"] == []


def test_the_tool_finds_a_circle_a_function_level_import_closes(tmp_path):
    """A made-up package where b imports a at the top and a imports b inside a function."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from pkg.b import g\n    return g()\n")
    (pkg / "b.py").write_text("from pkg import a\nfrom pkg.c import _hidden\n\ndef g():\n    return 1\n")
    (pkg / "c.py").write_text("_hidden = 1\n")
    facts = _graph().analyse(["pkg"], root=tmp_path, forbid=[("pkg.c", "pkg.a")])
    assert facts["circles"] == [["pkg.a", "pkg.b"]]
    assert facts["private"] == [("pkg.b", 2, "pkg.c", "_hidden")]
    assert facts["forbidden"] == []
