#!/usr/bin/env python3
"""Drives headless Chromium over the Chrome DevTools Protocol (--remote-debugging-pipe), with
the standard library only. Two browser profiles (contexts, each with its own cookies): ada
signs in on front end A through the fixture's sign-in page, grace on front end B; each sees
their own repositories, private ones included, and not the other's. ada bookmarks a
repository by clicking the page's own buttons; ada's page on front end B (never reloaded)
lists it, grace's does not. Then: a deep link opened directly, back and forward, a reload
keeping the screen; the leader killed with SIGKILL while the pages are open (the page shows
offline, a bookmark clicked meanwhile is applied once the leader is back, and the page
recovers by itself); a README that tries to run a script (nothing runs); an error without a
retry; the page at 360 px wide without horizontal scrolling; and a rate limit of ada's that
says until when and does not delay grace's loads. Saves a screenshot of each step. Prints one
line per step and `browser: N passed, M failed`.

Usage: browser-cdp.py CHROMIUM URL_A URL_B ARTIFACT_DIR
Environment: LEADER_COMMAND (JSON list), LEADER_PID_FILE, LEADER_LOG: how to kill the leader
and start it again; LEADER_JOURNAL: its journal, to count the actions it applied.
"""
import base64
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

chromium, url_a, url_b, artifacts = sys.argv[1:5]
os.makedirs(artifacts, exist_ok=True)
started = time.monotonic()
passed = failed = 0


def step(ok, text, page=None):
    """Counts and prints a step; a failed step on a page also prints what that page shows."""
    global passed, failed
    if ok:
        passed += 1
        print("ok    %-66s (%ds)" % (text, time.monotonic() - started), flush=True)
    else:
        failed += 1
        print("FAIL  " + text, flush=True)
        if page:
            print("      the page shows: %s" % browser.describe(page), flush=True)
    return ok


class Browser:
    def __init__(self):
        to_chrome_read, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_write = os.pipe()
        self.profile = tempfile.mkdtemp(prefix="tandem-chromium-")
        self.log = open(os.path.join(artifacts, "chromium.log"), "w")
        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
             "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
             "--window-size=1280,900", "about:blank"],
            close_fds=False, preexec_fn=lambda: self.wire(to_chrome_read, from_chrome_write),
            stdout=self.log, stderr=self.log)
        os.close(to_chrome_read)
        os.close(from_chrome_write)
        self.buffer = b""
        self.next_id = 0

    @staticmethod
    def wire(read_end, write_end):
        # Chromium reads commands on fd 3 and writes replies on fd 4. Duplicate to fresh
        # descriptors first, so neither dup2 overwrites the other end.
        read_copy, write_copy = os.dup(read_end), os.dup(write_end)
        os.dup2(read_copy, 3)
        os.dup2(write_copy, 4)

    def call(self, method, params=None, session=None, timeout=20):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_chrome, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe (see chromium.log)")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
        raise RuntimeError(method + ": no reply in time")

    def context(self):
        """A new browser context: a profile of its own, with its own cookies."""
        return self.call("Target.createBrowserContext")["browserContextId"]

    def open(self, url, context=None):
        params = {"url": url}
        if context:
            params["browserContextId"] = context
        target = self.call("Target.createTarget", params)["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=session)
        return session

    def evaluate(self, session, expression):
        result = self.call("Runtime.evaluate",
                           {"expression": expression, "returnByValue": True}, session=session)
        return result.get("result", {}).get("value")

    def wait_for(self, session, expression, seconds=20):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.evaluate(session, expression):
                return True
            time.sleep(0.1)
        return False

    def describe(self, session):
        try:
            return self.evaluate(session, "JSON.stringify({connection: window.tandem && "
                                 "tandem.view() ? tandem.view().connection : null, "
                                 "screen: document.body.dataset.screen, path: location.pathname, "
                                 "outcome: (document.getElementById('outcome') || {}).textContent, "
                                 "main: (document.getElementById('main') || {}).textContent})")
        except Exception as error:
            return "(cannot read the page: %s)" % error

    def reload(self, session):
        self.call("Page.reload", session=session)

    def width(self, session, pixels):
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": pixels, "height": 800, "deviceScaleFactor": 1, "mobile": True},
                  session=session)

    def click(self, session, selector):
        return self.evaluate(session, "(() => { const e = document.querySelector(%s); "
                             "if (!e) return false; e.click(); return true; })()" % json.dumps(selector))

    def screenshot(self, session, name):
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=session)["data"]
        path = os.path.join(artifacts, name)
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))
        return path

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


REPO = "ada/cinder-server"
LIVE = "window.tandem && tandem.view() && tandem.view().connection === 'live'"


def shows_repositories_of(owner, count):
    """The page lists `count` repositories, every one of `owner`'s, one of them private."""
    return ("document.body.dataset.screen === 'repositories' && (() => { const repos = "
            "[...document.querySelectorAll('main [data-action=open]')].map(e => e.dataset.repo);"
            " return repos.length === %d && repos.every(r => r.startsWith('%s/')) && "
            "document.querySelectorAll('main small').length > 0 && "
            "document.querySelector('main').textContent.includes('private'); })()"
            % (count, owner))


def sign_in(page, login):
    """Clicks "Sign in with GitHub", then the fixture user `login` on the fixture's page."""
    return (browser.wait_for(page, "document.body.dataset.screen === 'sign-in'")
            and browser.click(page, "#sign-in")
            and browser.wait_for(page, "!!document.getElementById('sign-in-%s')" % login)
            and browser.click(page, "#sign-in-%s" % login)
            and browser.wait_for(page, LIVE)
            and browser.wait_for(page, "document.getElementById('identity').textContent"
                                 ".includes('%s')" % login))


def bookmarks(page):
    return browser.evaluate(page, "document.body.dataset.bookmarks.split(' ')") or []


def kill_leader():
    with open(os.environ["LEADER_PID_FILE"]) as file:
        os.kill(int(file.read().strip()), signal.SIGKILL)


def journaled(tag):
    """How many actions with `tag` the leader's journal applied (one row a delta)."""
    journal = sqlite3.connect(os.environ["LEADER_JOURNAL"], timeout=10)
    try:
        return journal.execute("SELECT count(*) FROM deltas WHERE tag = ?", (tag,)).fetchone()[0]
    finally:
        journal.close()


def start_leader():
    log = open(os.environ["LEADER_LOG"], "a")
    process = subprocess.Popen(json.loads(os.environ["LEADER_COMMAND"]), stdout=log, stderr=log,
                               stdin=subprocess.DEVNULL)
    with open(os.environ["LEADER_PID_FILE"], "w") as file:
        file.write(str(process.pid))


browser = Browser()
try:
    version = browser.call("Browser.getVersion")
    step(True, "chromium runs headless: " + version.get("product", "?"))
    ada_profile, grace_profile = browser.context(), browser.context()

    a = browser.open(url_a, ada_profile)
    step(browser.wait_for(a, "document.body.dataset.screen === 'sign-in'"),
         "page A, not signed in, shows only the sign-in screen", a)
    browser.screenshot(a, "sign-in.png")
    step(sign_in(a, "ada"), "ada signs in on A through the fixture's sign-in page", a)
    step(browser.wait_for(a, shows_repositories_of("ada", 12)),
         "page A shows ada's 12 repositories, her private one included", a)
    browser.screenshot(a, "ada-signed-in.png")
    g = browser.open(url_b, grace_profile)
    step(sign_in(g, "grace") and browser.wait_for(g, shows_repositories_of("grace", 4)),
         "grace signs in on B (another profile) and sees her 4, her private one included", g)
    browser.screenshot(g, "grace-signed-in.png")
    ada_on_b = browser.open(url_b + "/bookmarks", ada_profile)
    step(browser.wait_for(ada_on_b, LIVE)
         and browser.wait_for(ada_on_b, "document.body.dataset.screen === 'bookmarks'")
         and REPO not in bookmarks(ada_on_b),
         "ada's page on B (same profile, signed in) shows her bookmarks, without %s" % REPO,
         ada_on_b)

    step(browser.click(a, "[data-action=open][data-repo=\"%s\"]" % REPO)
         and browser.wait_for(a, "document.body.dataset.screen === 'repository' && "
                              "!!document.querySelector('.markdown h1')")
         and browser.evaluate(a, "location.pathname") == "/" + REPO,
         "clicked %s on A: its README (formatted), branches and commits show at /%s" % (REPO, REPO), a)
    step(browser.click(a, "h2 [data-action=bookmark]")
         and browser.wait_for(a, "document.body.dataset.bookmarks.split(' ').includes('%s')" % REPO)
         and browser.wait_for(a, "document.getElementById('debug-facts').textContent"
                              ".includes('github.bookmark.add at sequence')")
         and not browser.evaluate(a, "document.body.innerText.includes('sequence')"),
         "clicked Bookmark on A: the sequence is only in the collapsed debug panel", a)
    browser.screenshot(a, "page-a.png")
    step(browser.wait_for(ada_on_b, "!!document.querySelector('main [data-action=open]"
                          "[data-repo=\"%s\"]')" % REPO, 5),
         "ada's page on B, open all along, lists %s without a reload" % REPO, ada_on_b)
    browser.screenshot(ada_on_b, "page-b.png")
    browser.evaluate(g, "tandem.openBookmarks()")
    step(browser.wait_for(g, "document.body.dataset.screen === 'bookmarks'")
         and browser.wait_for(g, "!!document.querySelector('main .empty')") and not bookmarks(g)[0],
         "grace's bookmarks stay her own: empty", g)
    browser.screenshot(g, "grace-bookmarks.png")

    on_repository = ("document.body.dataset.screen === 'repository' && location.pathname === '/%s'"
                     " && !!document.querySelector('.markdown')" % REPO)
    on_owner = ("document.body.dataset.screen === 'repositories' && location.pathname === '/ada'"
                " && document.querySelector('main h2').textContent.startsWith('ada')"
                " && !!document.querySelector('[data-action=open]')")
    deep = browser.open(url_a + "/" + REPO, ada_profile)
    step(browser.wait_for(deep, LIVE) and browser.wait_for(deep, on_repository),
         "a deep link to /%s opens that repository directly" % REPO, deep)
    browser.screenshot(deep, "deep-link.png")
    step(browser.click(deep, "[data-action=back]") and browser.wait_for(deep, on_owner),
         "the owner link goes to /ada and shows ada's repositories", deep)
    browser.evaluate(deep, "history.back()")
    step(browser.wait_for(deep, on_repository), "Back returns to /%s" % REPO, deep)
    browser.screenshot(deep, "back.png")
    browser.evaluate(deep, "history.forward()")
    step(browser.wait_for(deep, on_owner), "Forward returns to /ada", deep)
    browser.screenshot(deep, "forward.png")
    browser.reload(deep)
    step(browser.wait_for(deep, LIVE) and browser.wait_for(deep, on_owner),
         "a reload at /ada keeps ada's repositories", deep)
    browser.screenshot(deep, "reload.png")

    # The leader dies with the pages open: they show offline, keep a bookmark clicked
    # meanwhile, and recover by themselves once it is started again from its journal.
    OTHER = "ada/juniper-docs"
    kill_leader()
    offline = ("!document.getElementById('offline').hidden && "
               "document.getElementById('connection').textContent === 'offline'")
    step(browser.wait_for(deep, offline, 30), "the leader killed with SIGKILL: page shows offline",
         deep)
    browser.screenshot(deep, "offline.png")
    clicked = browser.click(deep, "[data-action=bookmark][data-repo=\"%s\"]" % OTHER)
    step(clicked, "clicked Bookmark on %s while the leader is down" % OTHER, deep)
    start_leader()
    step(browser.wait_for(deep, LIVE, 30)
         and browser.wait_for(deep, "document.getElementById('offline').hidden", 10)
         and browser.wait_for(deep, "document.body.dataset.bookmarks.split(' ').filter(b => "
                              "b === '%s').length === 1" % OTHER, 20)
         and REPO in bookmarks(deep),
         "leader back from its journal: the page recovers by itself, shows the bookmark", deep)
    step(journaled("github.bookmark.add") == 2,
         "the journal applied the bookmarks exactly once each (%s)"
         % journaled("github.bookmark.add"))
    browser.screenshot(deep, "recovered.png")

    browser.width(deep, 360)
    narrow = "document.documentElement.scrollWidth <= window.innerWidth && window.innerWidth <= 360"
    fits = browser.wait_for(deep, narrow, 5)
    owner_box = browser.evaluate(deep, "(() => { const r = document.getElementById('owner')"
                                       ".getBoundingClientRect(); return r.right <= innerWidth && r.width > 40; })()")
    browser.screenshot(deep, "narrow-list.png")
    browser.evaluate(deep, "tandem.openRepository('ada', 'cinder-server')")
    fits = fits and browser.wait_for(deep, on_repository) and browser.wait_for(deep, narrow, 5)
    browser.screenshot(deep, "narrow-repository.png")
    step(fits and owner_box,
         "at 360 px the list and the repository fit without horizontal scroll (search box too)",
         deep)

    hostile = browser.open(url_a + "/mallory/juniper-cli", ada_profile)
    step(browser.wait_for(hostile, LIVE)
         and browser.wait_for(hostile, "!!document.querySelector('.markdown h1')")
         and browser.evaluate(hostile, "document.querySelector('.markdown').textContent"
                              ".includes('<script>window.readmeScriptRan')")
         and browser.evaluate(hostile, "document.querySelectorAll('main script, main img, "
                              "main [onerror], main a[href^=javascript]').length === 0")
         and browser.evaluate(hostile, "typeof window.readmeScriptRan === 'undefined'"),
         "a README with <script> and <img onerror> shows them as text; nothing ran", hostile)
    browser.screenshot(hostile, "hostile-readme.png")
    browser.evaluate(hostile, "tandem.openOwner('blocked')")
    step(browser.wait_for(hostile, "!!document.querySelector('main .problem details')")
         and browser.evaluate(hostile, "!document.querySelector('[data-action=retry]') && "
                              "document.querySelector('main .problem p').textContent"
                              ".includes('legal reasons')"),
         "a 451 says why in words, with the details collapsed and no retry", hostile)
    browser.screenshot(hostile, "blocked.png")
    # Last, as it holds ada's loads back for a minute: a rate limit says until when, holds
    # back ada's next load, and not grace's.
    browser.evaluate(hostile, "tandem.openOwner('rate-limited')")
    step(browser.wait_for(hostile, "!!document.querySelector('main .waiting') && document"
                          ".querySelector('main .waiting').textContent.includes('resets at')"),
         "a rate-limited owner says when GitHub's limit resets, without a retry", hostile)
    browser.evaluate(hostile, "tandem.openOwner('grace')")
    step(browser.wait_for(hostile, "location.pathname === '/grace' && !!document.querySelector("
                          "'main .waiting') && document.querySelector('main .waiting')"
                          ".textContent.startsWith('Waiting')"),
         "ada's next load, held back by her rate limit, says why and until when", hostile)
    browser.screenshot(hostile, "rate-limited.png")
    browser.evaluate(g, "tandem.openOwner('octo-org')")
    waited = time.monotonic()
    step(browser.wait_for(g, "location.pathname === '/octo-org' && "
                          "document.querySelectorAll('main [data-action=open]').length === 30", 10),
         "meanwhile grace's load of octo-org is not delayed (%.1f s)" % (time.monotonic() - waited),
         g)
    browser.screenshot(g, "grace-not-delayed.png")
except Exception as error:
    step(False, "browser session: %s" % error)
finally:
    browser.close()
print("browser: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
