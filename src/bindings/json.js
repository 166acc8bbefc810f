// App data (metadata, a hook's answer) as JSON text for the Rust side. JSON.stringify refuses
// a cycle or a BigInt with an exception; the replacer refuses what it would silently drop.
export function jsonText(value) {
  return JSON.stringify(value, (key, v) => {
    if (typeof v === "function" || typeof v === "symbol") {
      throw new TypeError(`${key ? `"${key}"` : "the value"} is a ${typeof v}, not JSON data`);
    }
    return v;
  });
}
