// What a proxy is called wherever it is listed (My Proxies' cards, the dashboard's Active
// Proxies, the console's user detail): its place and its username, "Oslo, Norway · alice42".
// Every proxy answers on the same gateway host and port, so "localhost:3128" tells none
// apart (issue #28). Country names come from the browser (Intl.DisplayNames), so no page
// carries the country list for this.

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(["en"], { type: "region" });
  } catch {
    return null;
  }
})();

/** "Norway" for "NO"; anything the browser does not know as it is ("Unknown", "XX"). */
export function regionName(code: string): string {
  try {
    return (/^[A-Za-z]{2}$/.test(code) ? regionNames?.of(code.toUpperCase()) : undefined) ?? code;
  } catch {
    return code;
  }
}

/** "Oslo, Norway", "Norway" without a city, "" with neither. */
export function proxyPlace(proxy: { country: string; city?: string | undefined }): string {
  return [proxy.city ?? "", proxy.country ? regionName(proxy.country) : ""].filter(Boolean).join(", ");
}

/** "Oslo, Norway · alice42"; the username alone when the place is unknown. */
export function proxyTitle(proxy: { country: string; city?: string | undefined; username: string }): string {
  const place = proxyPlace(proxy);
  return place ? `${place} · ${proxy.username}` : proxy.username;
}
