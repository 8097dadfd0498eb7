"""Game records: the versioned JSON-lines file of a game (docs/records.md), its writer,
its reader that replays every hand at the Table, and one seat's protocol transcript."""
