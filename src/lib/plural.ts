// Counted nouns in words: "1 proxy", "2 proxies", "1,000 proxies" (issue #15: never "1 proxies").

/** `count` with the noun for it: `one` for exactly 1, else `many`; the count in en-US digits. */
export function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}
