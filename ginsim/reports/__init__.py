"""matplotlib charts and the HTML/Markdown report builder (see the report issue)."""
