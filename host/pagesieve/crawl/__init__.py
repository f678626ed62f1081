"""``pagesieve batch``: clean a whole crawl, WARC files in, one row per page out.

The modules, in the order the data flows:

- :mod:`~pagesieve.crawl.records`: WARC records -> HTML pages (or the reason a record is skipped);
- :mod:`~pagesieve.crawl.learn`: the learn pass, each site's template library (seed 000) and
  layout fingerprints (seed 004) learned streaming with :mod:`pagesieve.templates`;
- :mod:`~pagesieve.crawl.pages`: the extract pass, every page with its site's templates;
- :mod:`~pagesieve.crawl.output`: the Parquet / JSON-lines parts, written whole or not at all;
- :mod:`~pagesieve.crawl.job`: the Dask job that runs both passes over the input files;
- :mod:`~pagesieve.crawl.cli`: the ``pagesieve batch`` command;
- :mod:`~pagesieve.crawl.datatrove`: an extractor step for datatrove pipelines.

Needs the ``batch`` extra (``pip install 'pagesieve[batch]'``: fastwarc, pyarrow, distributed).
"""
