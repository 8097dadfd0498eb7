"""The rules as a person reads them: the named presets (docs/rules.md §8) and the one
place rules become words (:mod:`.rules_in_words`)."""
