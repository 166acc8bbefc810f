// Seeded test data shared by the Node and Chromium benchmarks; imports nothing, so a page can
// load it from the static server as it is.

/** mulberry32: small, fast, seeded; numbers in [0, 1). */
export function mulberry32(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const DIM = 384;

/** `n` unit vectors of DIM dimensions from 256 gaussian clusters, like real embeddings
 * (random uniform vectors have no neighbours worth finding). */
export function vectors(n, seed) {
  const r = mulberry32(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
  const centers = Array.from({ length: 256 }, () => Float32Array.from({ length: DIM }, gauss));
  const out = new Float32Array(n * DIM);
  for (let i = 0; i < n; i++) {
    const c = centers[Math.floor(r() * centers.length)];
    let norm = 0;
    for (let d = 0; d < DIM; d++) { const v = c[d] + 0.6 * gauss(); out[i * DIM + d] = v; norm += v * v; }
    norm = Math.sqrt(norm);
    for (let d = 0; d < DIM; d++) out[i * DIM + d] /= norm;
  }
  return out;
}

/** The exact top `k` of `n` vectors in `data` by dot product with `q`, by insertion into a
 * small sorted list: what a careful JS user writes. */
export function bruteForce(data, n, q, k) {
  const top = [], sc = [];
  for (let i = 0; i < n; i++) {
    let s = 0;
    const o = i * DIM;
    for (let d = 0; d < DIM; d++) s += data[o + d] * q[d];
    if (top.length === k && s <= sc[k - 1]) continue;
    let at = top.length;
    while (at > 0 && sc[at - 1] < s) at--;
    top.splice(at, 0, i);
    sc.splice(at, 0, s);
    if (top.length > k) { top.pop(); sc.pop(); }
  }
  return top;
}
