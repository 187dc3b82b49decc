"""The ``ginnyo`` commands, one module a command (``crazy``: the Crazy Rummy group).

Each module holds its command's argparse setup (``register``) and its body
(``run``: reading the arguments, printing, the files it writes); the domain
modules it calls return data and strings and never print.  A module imports
the domain modules only when its command runs, so that a command's start-up
loads what that command needs and nothing more.  :mod:`ginnyo.cli` assembles
the parser and runs the command.
"""
