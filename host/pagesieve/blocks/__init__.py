"""Page -> blocks and their features: the second step of the data flow.

:mod:`~pagesieve.blocks.segment` cuts a pre-processed page into blocks (seed 000 §3);
:mod:`~pagesieve.blocks.features` gives each block its first-pass feature row (seed 000 §5 and
ours); :mod:`~pagesieve.blocks.layout` the box and zone features of a rendered page;
:mod:`~pagesieve.blocks.signals` the page-level signals and card columns the second stage reads.
"""
