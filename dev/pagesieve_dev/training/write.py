"""The trained model written out (step 7 of ``pagesieve-dev train``): ``models/blocks.skops``
(skops, no pickle), its compiled twin ``models/blocks.npz`` (:mod:`pagesieve.classify.model_store`)
and ``models/training.json`` (data, split counts, CV scores, library versions), which
``models/README.md`` reports; ``blocks-boxes.skops`` and ``training-boxes.json`` for the
box-aware model.
"""

from __future__ import annotations

import json
import platform
from pathlib import Path

import numpy as np

from pagesieve.blocks.features import FEATURE_NAMES
from pagesieve.blocks.layout import BOX_FEATURE_NAMES
from pagesieve.classify.context import context_feature_names
from pagesieve_dev.training.stage2 import StageTwo


def library_versions() -> dict:
    """Versions of the libraries the model depends on."""
    import lxml.etree
    import scipy
    import skops
    import sklearn

    return {
        "python": platform.python_version(),
        "scikit-learn": sklearn.__version__,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "skops": skops.__version__,
        "lxml": ".".join(map(str, lxml.etree.LXML_VERSION)),
    }


def model_meta(*, rendered: bool, stage_two: StageTwo, sources: dict, y: np.ndarray, rows: np.ndarray,
               cv_rows: np.ndarray, seed: int, cv_info: dict, svm, reduced_info: dict | None,
               seconds: dict[str, float]) -> dict:
    """The model's facts, stored in it and in ``training.json``.

    Args:
        rendered: trained on rendered pages (box features); stage_two: the context stage;
        sources: per-dataset page counts (:func:`~pagesieve_dev.training.pages.collect`);
        y: ``(rows,)`` every labelled row's label; rows, cv_rows: the indices of the balanced
        sample and of the C/gamma search's rows; cv_info: stage 1's CV record; svm: the fitted
        stage-1 pipeline; reduced_info: the reduced set's record, if any; seconds:
        ``{"collect", "fit"}`` wall seconds, rounded here to 0.1.
    """
    from pagesieve.blocks.signals import CARD_COLUMNS
    from pagesieve.classify.page_type import PAGE_TYPE_COLUMNS

    features = (FEATURE_NAMES + (BOX_FEATURE_NAMES if rendered else ()) + (CARD_COLUMNS if stage_two.cards else ())
                + (PAGE_TYPE_COLUMNS if stage_two.typed else ()))
    return {
        "features": list(features),
        "context_features": list(context_feature_names(features)),
        "rendered": rendered,
        "svm_features": list(FEATURE_NAMES),
        "datasets": sources,
        "rows_labelled": int(len(y)),
        "rows_content": int((y == 1).sum()),
        "rows_sample": int(len(rows)),
        "rows_cv": int(len(cv_rows)),
        "seed": seed,
        "cv": cv_info,
        "support_vectors": int(svm.named_steps["svm"].n_support_.sum()),
        "context": stage_two.info,
        "page_type": stage_two.type_info,
        **({"svm_reduced": reduced_info} if reduced_info else {}),
        "seconds": {name: round(value, 1) for name, value in seconds.items()},
        "versions": library_versions(),
    }


def write_model(out: Path, rendered: bool, svm, meta: dict, stage_two: StageTwo, reduced=None) -> Path:
    """Save the model (``blocks.skops``, or ``blocks-boxes.skops`` when ``rendered``) and its
    ``training.json`` (``training-boxes.json``) into ``out``.

    Returns:
        The model's path.
    """
    from pagesieve.classify.model_store import FittedModel, save_model

    model_path = out / ("blocks-boxes.skops" if rendered else "blocks.skops")
    save_model(FittedModel(estimator=svm, meta=meta, context=stage_two.context, context_threshold=stage_two.threshold,
                           type_thresholds=stage_two.type_thresholds,
                           page_type=stage_two.page_type, reduced=reduced), model_path)
    (out / ("training-boxes.json" if rendered else "training.json")).write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return model_path
