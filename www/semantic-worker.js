// Semantic recall, the Worker's half: loads the sentence embedder (models/embed.bin, through
// EmbedModel.fromUrl, which keeps it in IndexedDB after the first download), hands it to the
// Memory as `embedder`, and embeds what waits for a vector a small batch at a time between the
// page's requests, so neither adding a turn nor the first search after opening a long chat
// embeds the history. Posts `{ event: "embedModel", state, loaded, total }` while loading and
// `{ event: "embedding", pending }` as the backlog shrinks.
import { EmbedModel } from "/pkg/llm_memory.js";

/** Items per batch: about a tenth of a second of the model's work in a Worker. */
const BATCH = 16;

/** `post` sends the page an event, `enqueue(fn)` runs fn in turn with the page's requests,
 * `memory()` is the open Memory (or null). */
export function semanticRecall({ post, enqueue, memory }) {
  let model = null;   // the loaded EmbedModel
  let loading = null; // its loading promise
  let wanted = false; // the page's toggle
  let draining = false;

  /** Embeds the backlog in batches, each queued behind the page's requests. */
  async function drain() {
    if (draining) return;
    draining = true;
    try {
      for (;;) {
        const mem = memory();
        if (!mem || !wanted || !model) break;
        // null: another chat was opened meanwhile; go on with its backlog.
        const pending = await enqueue(() => (memory() === mem ? mem.embedPending({ limit: BATCH }) : null));
        if (pending === null) continue;
        post({ event: "embedding", pending });
        if (!pending) break;
        await new Promise((r) => setTimeout(r)); // let a waiting request in first
      }
    } catch (e) {
      post({ event: "embedding", pending: null, error: String(e?.message ?? e) });
    } finally {
      draining = false;
    }
  }

  return {
    /** Memory options for a new or reopened Memory: the embedder when it is on and loaded. */
    options: () => (wanted && model ? { embedder: model } : {}),
    /** Work appeared (a turn, an opened or imported chat): embed it soon. */
    kick() {
      if (wanted && model) setTimeout(drain);
    },
    /** Turns semantic recall on (loading the model once) or off. Resolves to the model's info;
     * turning it off takes effect when the page reopens the chat (the Memory keeps its embedder). */
    async set(on, url) {
      wanted = !!on;
      if (!wanted) return { on: false };
      loading ??= (async () => {
        let lastPost = 0;
        post({ event: "embedModel", state: "loading", loaded: 0, total: 0 });
        return EmbedModel.fromUrl(url, {
          onProgress: ({ loaded, total }) => {
            if (loaded - lastPost < 256 * 1024 && loaded !== total) return;
            lastPost = loaded;
            post({ event: "embedModel", state: "loading", loaded, total: total ?? 0 });
          },
        });
      })();
      try {
        model = await loading;
      } catch (e) {
        loading = null;
        throw e;
      }
      await enqueue(() => {
        const mem = memory();
        if (wanted && mem) mem.configure({ embedder: model });
      });
      this.kick();
      return {
        on: true, fromCache: model.fromCache, dimensions: model.dimensions,
        license: model.license, attribution: model.attribution,
        pending: memory()?.pendingEmbeddings ?? 0,
      };
    },
  };
}
