"""When to knock, in tables: knock charts, equilibria, sweeps and best responses, the
knock study's answer and its card."""
