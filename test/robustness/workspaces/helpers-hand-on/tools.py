"""A module with the same name as pkg/tools.py, at the top."""
from pkg.tools import finish


def finish_top(kw):
    finish(kw, 0)
    finish_top(kw)
