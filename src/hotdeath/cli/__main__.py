"""``python -m hotdeath.cli``: the ``hotdeath`` command."""

from hotdeath.cli import main

main()
