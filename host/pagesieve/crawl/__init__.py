"""``pagesieve batch``: clean a whole crawl, WARC files in, one row per page out.

The modules, in the order the data flows:

- :mod:`~pagesieve.crawl.records`: WARC records -> HTML pages (or the reason a record is skipped);
- :mod:`~pagesieve.crawl.parts`: each file cut into parts of a bounded number of records;
- :mod:`~pagesieve.crawl.learn`: each site's template library (seed 000) and layout
  fingerprints (seed 004) learned streaming with :mod:`pagesieve.templates`, and merged;
- :mod:`~pagesieve.crawl.pages`: the passes over the pages: judge each page once (the learn
  pass, with :mod:`~pagesieve.crawl.learn`), then every page with its site's templates;
- :mod:`~pagesieve.crawl.rows`: one page's row, extracted, or judged once for both passes;
- :mod:`~pagesieve.crawl.judged`: the judged pages kept between the two passes;
- :mod:`~pagesieve.crawl.summaries`: the page summaries of the parts, learned by site in crawl order;
- :mod:`~pagesieve.crawl.guard`: each page in a forked process, under ``--page-timeout``;
- :mod:`~pagesieve.crawl.output`: the Parquet / JSON-lines parts, written whole or not at all;
- :mod:`~pagesieve.crawl.job`: the Dask job that runs the passes over the parts;
- :mod:`~pagesieve.crawl.cluster`: its Dask client and cluster, and a pass's tasks run on it;
- :mod:`~pagesieve.crawl.tasks`: the tasks its workers run (a part's learn and extract, a site bucket's);
- :mod:`~pagesieve.crawl.report`: what it reports of a run (``summary.json``, ``sites.parquet``);
- :mod:`~pagesieve.crawl.cli`: the ``pagesieve batch`` command;
- :mod:`~pagesieve.crawl.datatrove`: an extractor step for datatrove pipelines.

Needs the ``batch`` extra (``pip install 'pagesieve[batch]'``: fastwarc, pyarrow, distributed).
"""
