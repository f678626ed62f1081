"""What the stores share: SQLite set-up and migrations (:mod:`~pagesieve.storage.sqlite_schema`)
and atomic file writes (:mod:`~pagesieve.storage.atomic`), for the template store, the label
store, the library and the crawl output."""
