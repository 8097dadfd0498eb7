"""``ginsim serve``: play a bot and review games in a web browser (docs/serve.md).

Beside the command line at the top of the layers: it may import reports, analysis,
runner, table, simulator, strategies and game; nothing imports it.
"""
