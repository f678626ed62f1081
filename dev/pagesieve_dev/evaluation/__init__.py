"""Evaluation: dataset reader, token metric, peers, the `eval` and `bench` commands."""
