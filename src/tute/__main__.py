"""``python -m tute``: the same entry point as the ``tute`` console script."""

from tute.console import main

if __name__ == "__main__":
    main()
