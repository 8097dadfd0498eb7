"""What a user hands the lab, checked: one validator per kind of argument, the
``preset[:key=value,...]`` spec syntax, and files read from strangers."""
