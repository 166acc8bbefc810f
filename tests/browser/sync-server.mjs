// The real sync server (server/, binary llm-memory-server) on a throwaway SQLite file, for the
// browser sync tests: started, killed with SIGKILL, restarted on the same port and file.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Where `cargo build --profile server -p llm-memory-server` puts the binary. */
export function serverBinary() {
  if (process.env.SYNC_SERVER_BIN) return process.env.SYNC_SERVER_BIN;
  const target = process.env.CARGO_TARGET_DIR ?? join(root, "target");
  return join(target, "server", "llm-memory-server");
}

function start(bin, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
    let seen = "";
    const look = (chunk) => {
      seen += chunk;
      const m = /listening on (http:\/\/[^\s]+)/.exec(seen);
      if (m) resolve({ child, url: m[1].replace(/\/$/, "") });
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    child.on("exit", (code) => reject(new Error(`llm-memory-server exited (${code}) before listening:\n${seen}`)));
  });
}

/** Starts the server in development mode (every token its own user) with no rate limit. */
export async function startSyncServer() {
  const bin = serverBinary();
  if (!existsSync(bin)) throw new Error(`no sync server at ${bin}: run \`cargo build --profile server -p llm-memory-server\``);
  const dir = mkdtempSync(join(tmpdir(), "llm-memory-sync-"));
  const db = join(dir, "sync.db");
  let port = 0;
  let running;
  const up = async () => {
    running = await start(bin, ["--dev", "--store", `sqlite:${db}`, "--port", String(port), "--rate", "0"]);
    port = Number(new URL(running.url).port);
    return running.url;
  };
  const url = await up();
  return {
    url, db,
    /** SIGKILL: no shutdown, what is not committed is lost. */
    async kill() {
      const exited = new Promise((r) => running.child.once("exit", r));
      running.child.kill("SIGKILL");
      await exited;
    },
    restart: up,
    async close() {
      if (running.child.exitCode === null && running.child.signalCode === null) await this.kill();
    },
  };
}
