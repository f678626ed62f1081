"""Right-click corrections: labelled blocks, per-site rules and the personal model.

Data flow: a correction names one element of a page ("hide this" / "keep this") →
:mod:`.signature` describes its block structurally → :mod:`.store` keeps it as a labelled
example → :mod:`.rules` applies the site's corrections to later pages at once →
:mod:`.personal` retrains the block classifier with the labels in the background.
"""
