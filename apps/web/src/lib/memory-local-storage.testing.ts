/**
 * A `window.localStorage` held in a Map, for unit tests that run in Node without a browser. Returns the Map, so a
 * test can read what was kept and clear it between cases.
 */
export function installMemoryLocalStorage(): Map<string, string> {
  const stored = new Map<string, string>();
  Object.assign(globalThis, {
    window: {
      localStorage: {
        getItem: (key: string) => stored.get(key) ?? null,
        setItem: (key: string, value: string) => stored.set(key, value),
        removeItem: (key: string) => stored.delete(key),
      },
    },
  });
  return stored;
}
