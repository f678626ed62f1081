"""Site templates learned from the pages a user visits (issue: site templates).

So far: the template library of Yan & Wang 2020 (seed 000 §4), in memory. The store, the site
style tree (seed 002) and the layout-similarity diff (seed 004) come next.
"""
