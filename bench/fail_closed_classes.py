"""Issue 18's attack classes, one false sentence added to an honest closing: the figures
the tests in tests/audit/test_fail_closed_classes.py assert on, and with ``--verbose`` every
case that fails them.

    PYTHONPATH=. .venv/bin/python bench/fail_closed_classes.py [--verbose] [--only CLASS]
"""

from tests.audit.test_fail_closed_classes import main

if __name__ == "__main__":
    main()
