"""`python -m certiq.cli`: the certiq command where its script is not on PATH."""

from certiq.cli import main

main()
