"""The package version, in a leaf module every layer may import (the package root
re-exports analysis, so importing the version from there would pull pandas in)."""

__version__ = "0.1.0"
