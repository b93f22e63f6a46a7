"""Accounts in a real Chromium (issue 39, Checks): "register with an
address, confirm it from the mail the SMTP server received, log out,
« Mot de passe oublié », follow the mail's link, set a password, log in;
an owner enrols 2FA by reading the QR code's secret, logs out, logs in with
a code; a used code and a wrong code refused."

The server is the shipped one (uvicorn, as ``make run``) sending through a
real SMTP server the test starts (aiosmtpd); the QR code is read by a
barcode reader (zxing-cpp) from Chromium's screenshot, and the codes are
computed by pyotp from the secret it holds, as an authenticator app does.
"""

from __future__ import annotations

import datetime as dt

import pyotp
import pytest
import zxingcpp
from playwright.sync_api import expect
from tests.browser.pngread import gray
from tests.browser.test_table_page import ARTIFACTS, browser  # noqa: F401
from tests.dbtools import harness_settings
from tests.tables.liveserver import PASSWORD, LiveServer
from tests.web.mailserver import MailServer, link_of

from tavern.services import taverns, users
from tavern.store.db import make_engine, session_scope

pytestmark = [pytest.mark.browser, pytest.mark.db]

NEW_PASSWORD = "une toute autre phrase"


def _server(db_url: str, tmp_path, mail: MailServer) -> LiveServer:
    engine = make_engine(db_url)
    with session_scope(engine) as s:
        owner = users.create_user(s, "patronne", PASSWORD, settings=harness_settings())
        village = taverns.create_village(s, "Bourg")
        taverns.create_tavern(s, village.id, owner.id, "Au Chat Noir")
    engine.dispose()
    srv = LiveServer(db_url, tmp_path)
    srv.extra_env = {"TAVERN_SMTP_URL": mail.url, "TAVERN_PUBLIC_URL": srv.base, "TAVERN_TOTP_REQUIRED": "1",
                     "TAVERN_MAIL_RETRY_SECONDS": "0.5"}
    srv.start()
    return srv


def _logout(page) -> None:
    page.locator("form[action='/logout'] button").first.click()
    page.wait_for_load_state()


def _code(secret: str, steps_ahead: int = 0) -> str:
    return pyotp.TOTP(secret).at(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=30 * steps_ahead))


def test_address_reset_and_two_factor_sign_in_in_a_browser(browser, db_url, tmp_path):  # noqa: F811
    mail = MailServer().start()
    srv = _server(db_url, tmp_path, mail)
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        ctx = browser.new_context(base_url=srv.base)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        # Register with an address; confirm it from the mail received.
        page.goto("/register")
        page.fill("input[name=username]", "lucie")
        page.fill("input[name=password]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        page.fill("input[name=email]", "Lucie@Example.org")
        page.click("form[action='/register'] button[type=submit]")
        page.wait_for_url(srv.base + "/")
        (confirm,) = mail.wait_for(1)
        assert confirm["To"] == "lucie@example.org"
        page.goto(link_of(confirm))
        page.click("form[action='/courriel/confirmer'] button")
        page.wait_for_url("**/compte")
        expect(page.locator("#email-address")).to_have_text("lucie@example.org")
        _logout(page)
        # « Mot de passe oublié » → the mail's link → a new password → log in.
        page.goto("/login")
        page.click("text=Mot de passe oublié ?")
        page.fill("input[name=who]", "lucie@example.org")
        page.click("form[action='/mot-de-passe-oublie'] button")
        expect(page.locator("#reset-asked")).to_be_visible()
        page.screenshot(path=str(ARTIFACTS / "accounts-forgot.png"), full_page=True)
        reset = mail.wait_for(2)[1]
        page.goto(link_of(reset))
        page.fill("input[name=new]", NEW_PASSWORD)
        page.fill("input[name=new2]", NEW_PASSWORD)
        page.click("form[action='/mot-de-passe/nouveau'] button")
        page.wait_for_url("**/login")
        page.fill("input[name=username]", "lucie")
        page.fill("input[name=password]", NEW_PASSWORD)
        page.click("form[action='/login'] button")
        page.wait_for_url(srv.base + "/")
        _logout(page)
        # The owner must enrol: reads the secret beside the QR code, gives a code.
        page.goto("/login?next=/compte")
        page.fill("input[name=username]", "patronne")
        page.fill("input[name=password]", PASSWORD)
        page.click("form[action='/login'] button")
        page.wait_for_url("**/login/code**")
        expect(page.locator(".totp-qr svg")).to_be_visible()
        page.screenshot(path=str(ARTIFACTS / "accounts-2fa-enrol.png"), full_page=True)
        # Read the QR code as a phone does: a barcode reader nobody here wrote
        # (zxing-cpp) decodes Chromium's picture of it into the otpauth:// address.
        read = zxingcpp.read_barcode(gray(page.locator(".totp-qr svg").screenshot()))
        assert read is not None and read.format == zxingcpp.BarcodeFormat.QRCode
        scanned = pyotp.parse_uri(read.text)
        assert scanned.name == "patronne" and scanned.issuer == "La taverne"
        secret = scanned.secret
        assert page.text_content("#totp-secret").replace(" ", "") == secret  # the key typed by hand: the same
        enrolled = _code(secret)
        page.fill("input[name=code]", enrolled)
        page.click("form[action='/login/code'] button")
        expect(page.locator("#recovery-codes li")).to_have_count(10)
        page.screenshot(path=str(ARTIFACTS / "accounts-2fa-codes.png"), full_page=True)
        page.click("text=Continuer")
        page.wait_for_url("**/compte")
        _logout(page)
        # Log in with a code: a used code and a wrong one are refused.
        page.goto("/login?next=/compte")
        page.fill("input[name=username]", "patronne")
        page.fill("input[name=password]", PASSWORD)
        page.click("form[action='/login'] button")
        page.wait_for_url("**/login/code**")
        page.fill("input[name=code]", enrolled)
        page.click("form[action='/login/code'] button")
        expect(page.locator(".flash.error")).to_contain_text("a déjà servi")
        wrong = "000000" if _code(secret, 1) != "000000" else "111111"
        page.fill("input[name=code]", wrong)
        page.click("form[action='/login/code'] button")
        expect(page.locator(".flash.error")).to_contain_text("n'est pas le bon")
        page.fill("input[name=code]", _code(secret, 1))
        page.click("form[action='/login/code'] button")
        page.wait_for_url("**/compte")
        expect(page.locator("h1")).to_have_text("Mon compte")
        assert errors == []
        ctx.close()
    finally:
        srv.stop()
        mail.stop()
