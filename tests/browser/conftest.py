"""The browser fixtures of the table page's tests, shared by the other
browser tests (one Chromium per module, three logged-in players)."""

from tests.browser.test_table_page import browser, players  # noqa: F401
