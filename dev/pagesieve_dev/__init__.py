"""pagesieve_dev: the developers' tools beside the user package ``pagesieve``.

Evaluation on the benchmark datasets (:mod:`pagesieve_dev.evaluation`: the token metric, the
held-out and cross-validated runs, the benchmarks, rendering pages in a browser), training the
shipped block classifier (:mod:`pagesieve_dev.training`) and the seed-001 line model kept for
comparison (:mod:`pagesieve_dev.lines`). Its command is ``pagesieve-dev`` (:mod:`pagesieve_dev.cli`).
It imports the user package; the user package never imports it.
"""
