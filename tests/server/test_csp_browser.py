"""The Content-Security-Policy breaks nothing: Debian's Chromium (driven by Playwright) opens the
lobby, a table against the computer and ``/docs`` without a single CSP violation."""

from __future__ import annotations

import os

from playwright.sync_api import sync_playwright

from ._support.harness import Server

CHROMIUM = os.environ.get("ERREN_CHROMIUM", "/usr/bin/chromium-headless-shell")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
ARGS += ["--accept-lang=zh-CN"]  # the client follows the browser's language: read in Chinese
WATCH = """document.addEventListener("securitypolicyviolation", (e) =>
  console.log(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`));"""


def test_the_client_and_the_docs_run_under_the_policy(server: Server) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            messages: list[str] = []
            page = browser.new_page()
            page.on("console", lambda m: messages.append(m.text))
            page.add_init_script(WATCH)
            page.goto(server.url + "/")
            page.click("#btn-guest", timeout=10_000)
            page.wait_for_selector("text=人机对战", timeout=10_000)
            page.locator("button", has_text="人机对战").first.click()
            page.wait_for_selector(".tile", timeout=15_000)  # tiles drawn: the table is up
            page.goto(server.url + "/docs")
            page.wait_for_selector("#swagger-ui .opblock", timeout=15_000)
            violations = [m for m in messages if "CSP" in m or "Content Security Policy" in m]
            assert violations == []
            # the watch sees a violation when there is one: an inline style is refused
            page.evaluate("document.body.setAttribute('style', 'color: red')")
            page.wait_for_timeout(300)
            assert any("CSP violation: style-src" in m for m in messages), messages
        finally:
            browser.close()
