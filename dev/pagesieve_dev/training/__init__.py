"""Training data and the `train` command: block labels, the site-grouped split, the SVM."""
