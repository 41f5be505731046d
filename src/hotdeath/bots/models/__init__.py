"""The shipped weights of the ``neural`` bot: one ``<variant>-<players>.npz`` per table.

Made by ``hotdeath train`` (the commands are in ``docs/rl.md``); read by
:mod:`hotdeath.bots.neural`.
"""
