"""Greek Rami played: strategies, the deal and game kernels, the runner and store, the
study, its report and its command."""
