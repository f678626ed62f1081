"""``pagesieve labels list|export|import|delete|retrain`` and ``pagesieve reset --personal``:
the user's corrections and the personal model made from them, from the command line."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from pagesieve.corrections.store import LabelStore, read_jsonl
from pagesieve.errors import LabelStoreError, ReadError


def add_labels_arguments(parser: argparse.ArgumentParser) -> None:
    """``labels ACTION [...]``."""
    parser.add_argument("action", choices=("list", "export", "import", "delete", "retrain"),
                        help="list: the active labels; export: JSON lines to stdout or --file; "
                        "import: JSON lines from a file or stdin; delete: --site SITE, --id N or --all; "
                        "retrain: fit the personal model from the labels now (the host does it after each correction)")
    parser.add_argument("file", nargs="?", type=Path, help="import: the JSON-lines file (default stdin); export: where to write (default stdout)")
    parser.add_argument("--site", help="only this site (list, export, delete)")
    parser.add_argument("--id", type=int, help="delete: this label")
    parser.add_argument("--all", action="store_true", help="delete: every label; list: replaced labels too")
    parser.add_argument("--json", action="store_true", help="list: JSON lines instead of the table")
    parser.add_argument("--store", type=Path, default=None, help="the label store file (default: the user's)")
    parser.add_argument("--model-file", type=Path, default=None,
                        help="retrain: where to write the personal model (default: the user's data folder)")


def labels_main(args: argparse.Namespace) -> int:
    """Run ``pagesieve labels``.

    Raises:
        LabelStoreError: the store cannot be read or written, or an import line is malformed.
        ReadError: the import file cannot be read.
        ModelError: retrain without labels, or without the shipped model.
    """
    if args.action == "retrain":
        return retrain_personal(args.store, args.model_file)
    with LabelStore(args.store) as store:
        if args.action == "list":
            labels = store.labels(args.site, active_only=not args.all)
            if args.json:
                for lab in labels:
                    print(json.dumps(lab.summary(), ensure_ascii=False))
                return 0
            from pagesieve.table import format_table

            rows = [(str(lab.id), lab.site, lab.name + ("" if lab.active else " (replaced)"), lab.signature.describe(),
                     time.strftime("%Y-%m-%d %H:%M", time.localtime(lab.created)), (lab.snippet or "")[:40]) for lab in labels]
            print(format_table([("id", "site", "label", "block", "made", "text"), *rows]) if rows else "no labels yet")
            return 0
        if args.action == "export":
            lines = [json.dumps(lab.to_json(), ensure_ascii=False) for lab in store.labels(args.site)]
            text = "".join(line + "\n" for line in lines)
            if args.file is None:
                sys.stdout.write(text)
            else:
                from pagesieve.storage.atomic import write_files

                write_files([(args.file, text.encode("utf-8"))])
                print(f"{len(lines)} label(s) written to {args.file}", file=sys.stderr)
            return 0
        if args.action == "import":
            try:
                lines = sys.stdin.readlines() if args.file is None else args.file.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError) as exc:
                raise ReadError(f"{args.file}: cannot read: {exc}") from exc
            count = store.import_labels(list(read_jsonl(lines)))
            print(f"{count} label(s) imported")
            return 0
        if not (args.all or args.site or args.id is not None):
            raise LabelStoreError("say which labels to delete: --site SITE, --id N or --all")
        gone = store.delete(site=args.site, label_id=args.id, everything=args.all)
        print(f"{gone} label(s) deleted")
        return 0


def retrain_personal(labels_path: Path | None, model_file: Path | None) -> int:
    """``pagesieve labels retrain``: fit and write the personal model from the label store
    ``labels_path`` (default: the user's) to ``model_file`` (default: the user's); returns 0.
    Labels of fewer than :data:`~pagesieve.corrections.personal.PERSONAL_MIN_SITES` sites train
    nothing, and a personal model made before is deleted (one site's corrections stay on it).

    Raises:
        LabelStoreError: the store cannot be read. ModelError: no labels, or no shipped model.
    """
    from pagesieve.corrections.personal import PERSONAL_MIN_SITES, personal_model_path, reset_personal, train_personal

    with LabelStore(labels_path) as store:
        x, y = store.training_rows()
        sites = store.sites()
    out = model_file or personal_model_path()
    if sites and len(sites) < PERSONAL_MIN_SITES:
        removed = reset_personal(out)
        print(f"personal model not trained: your corrections are on {len(sites)} site{'' if len(sites) == 1 else 's'}; "
              f"it learns from them once they are on {PERSONAL_MIN_SITES} or more. Until then each applies on its own site"
              + (" (the personal model made before was deleted)." if removed else "."))
        return 0
    facts = train_personal(x, y, out)
    print(f"personal model written to {out}: {facts['user_rows']} labelled block(s) "
          f"+ {facts['shipped_support_vectors']} shipped support vectors in {facts['seconds']:.1f} s")
    return 0


def add_reset_arguments(parser: argparse.ArgumentParser) -> None:
    """``reset --personal``."""
    parser.add_argument("--personal", action="store_true", required=True,
                        help="delete the personal model (your labels stay; the shipped model serves again)")
    parser.add_argument("--model-file", type=Path, default=None, help="the personal model file (default: the user's)")


def reset_main(args: argparse.Namespace) -> int:
    """Run ``pagesieve reset --personal``."""
    from pagesieve.corrections.personal import reset_personal

    print("personal model deleted" if reset_personal(args.model_file) else "there was no personal model")
    return 0
