"""Drop-in shims: switch from another package with one import.

``from pydlx.compat import exact_cover`` for the ``exact_cover`` package,
``from pydlx.compat import xcover`` for ``xcover``: same functions, same
arguments, same return types.
"""
