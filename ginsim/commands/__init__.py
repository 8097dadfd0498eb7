"""The ``ginsim`` subcommands: for each, the parser it adds and the function it runs
(parse, call the API, print the lines :mod:`ginsim.reports.terminal` makes).
:mod:`ginsim.cli` assembles them into the command and runs it."""
