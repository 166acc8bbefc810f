// Headless Debian Chromium through playwright-core (no browser download).
import { chromium } from "playwright-core";
import { existsSync } from "node:fs";

const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

export function launch() {
  const executablePath = candidates.find((p) => p && existsSync(p));
  if (!executablePath) throw new Error("no Chromium found: run `make test`, which installs it");
  return chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"],
  });
}
