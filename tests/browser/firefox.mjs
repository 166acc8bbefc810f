// Headless Debian Firefox ESR through puppeteer-core over WebDriver BiDi: no browser download
// (Playwright drives only its own patched Firefox build, which we cannot fetch). The storage tests
// use a handful of Playwright calls; this wraps puppeteer's in the same shapes, so one test file
// runs on both engines.
import puppeteer from "puppeteer-core";
import { existsSync } from "node:fs";

const candidates = [process.env.FIREFOX_PATH, "/usr/bin/firefox-esr", "/usr/bin/firefox"];

export async function launchFirefox() {
  const executablePath = candidates.find((p) => p && existsSync(p));
  if (!executablePath) throw new Error("no Firefox found: run `make test-firefox`, which installs firefox-esr");
  const browser = await puppeteer.launch({ browser: "firefox", executablePath, headless: true });
  return {
    async newContext() {
      const context = await browser.createBrowserContext();
      return {
        newPage: async () => playwrightShaped(await context.newPage()),
        newCDPSession() {
          throw new Error("the Chrome DevTools Protocol exists in Chromium only");
        },
      };
    },
    close: () => browser.close(),
  };
}

/** A puppeteer page with the Playwright signatures the harness and the storage tests call. */
function playwrightShaped(page) {
  return {
    on: (event, listener) => page.on(event, listener),
    goto: (url) => page.goto(url),
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    // Playwright: (fn, arg, options); puppeteer: (fn, options, ...args).
    waitForFunction: (fn, arg, options = {}) => page.waitForFunction(fn, options, arg),
    reload: () => page.reload(),
    close: () => page.close(),
  };
}
