// Affiliate Management state: the affiliates query and page (with the stats), the selected
// affiliate's referrals, and paying a referral. New queries abort superseded requests.
import { atom, onMount } from "nanostores";
import { keepLoaded } from "@/lib/keep-loaded";
import { loadedList, pendingList, type PagedListState } from "@/lib/paged-list";
import { seedOf, type StoreSeed } from "@/stores/seed";
import { errorMessage, isAbort } from "@/lib/api-error";
import { formatCents } from "@/lib/money";
import {
  fetchAffiliates,
  fetchReferrals,
  payReferral,
  type AffiliatePage,
  type AffiliateRow,
  type AffiliateStats,
  type ReferralRow,
} from "@/features/console-affiliates/api";

export const SEARCH_DELAY_MS = 250;

/** The affiliates page; its criteria are the search text. */
export interface AffiliateListState extends PagedListState<AffiliateRow, string> {
  stats: AffiliateStats | null;
}

export interface ReferralListState {
  status: "idle" | "loading" | "ready" | "error";
  affiliateId: string;
  affiliate: AffiliateRow | null;
  items: ReferralRow[];
  page: number;
  totalPages: number;
  error: string;
}

export const $affiliateQuery = atom<{ search: string; page: number }>({ search: "", page: 1 });
export const $affiliateSearchText = atom("");
export const $affiliates = atom<AffiliateListState>({ ...pendingList(""), stats: null });
/** The affiliate whose detail panel is open ("" none) and the referrals page shown. */
export const $selection = atom<{ affiliateId: string; page: number }>({ affiliateId: "", page: 1 });
export const $referrals = atom<ReferralListState>({
  status: "idle",
  affiliateId: "",
  affiliate: null,
  items: [],
  page: 1,
  totalPages: 0,
  error: "",
});
/** The outcome of the last payout, announced on the page. */
export const $payNotice = atom<string>("");

const $listReloads = atom(0);
const $referralReloads = atom(0);

keepLoaded($affiliates, [$affiliateQuery, $listReloads], async (signal) => {
  const { search, page } = $affiliateQuery.get();
  const result = await fetchAffiliates(search, page, signal);
  return { ...loadedList(result, search), stats: result.stats };
});

/** The list's state for the first page the server read (null: it loads in the browser). */
export function affiliatesSeeds(first: AffiliatePage | null): StoreSeed[] {
  return [seedOf($affiliates, first ? { ...loadedList(first, ""), stats: first.stats } : null)];
}

onMount($referrals, () => {
  let controller: AbortController | null = null;
  const load = () => {
    controller?.abort();
    const { affiliateId, page } = $selection.get();
    if (!affiliateId) {
      controller = null;
      $referrals.set({ status: "idle", affiliateId: "", affiliate: null, items: [], page: 1, totalPages: 0, error: "" });
      return;
    }
    const current = new AbortController();
    controller = current;
    const previous = $referrals.get();
    const same = previous.affiliateId === affiliateId;
    $referrals.set({
      ...(same ? previous : { affiliate: null, items: [], page, totalPages: 0 }),
      affiliateId,
      status: "loading",
      error: "",
    });
    fetchReferrals(affiliateId, page, current.signal).then(
      (result) => {
        if (current.signal.aborted) return;
        $referrals.set({
          status: "ready",
          error: "",
          affiliateId,
          affiliate: result.affiliate,
          items: result.items,
          page: result.page,
          totalPages: result.totalPages,
        });
      },
      (err: unknown) => {
        if (current.signal.aborted || isAbort(err)) return;
        $referrals.set({ ...$referrals.get(), status: "error", error: errorMessage(err) });
      },
    );
  };
  const offs = [$selection.listen(load), $referralReloads.listen(load)];
  load();
  return () => {
    for (const off of offs) off();
    controller?.abort();
  };
});

let searchTimer: ReturnType<typeof setTimeout> | undefined;

export function setAffiliateSearch(text: string): void {
  $affiliateSearchText.set(text);
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    if ($affiliateQuery.get().search !== text.trim()) $affiliateQuery.set({ search: text.trim(), page: 1 });
  }, SEARCH_DELAY_MS);
}

export function clearAffiliateSearch(): void {
  clearTimeout(searchTimer);
  $affiliateSearchText.set("");
  $affiliateQuery.set({ search: "", page: 1 });
}

export function goToAffiliatePage(page: number): void {
  $affiliateQuery.set({ ...$affiliateQuery.get(), page: Math.max(1, page) });
}

export function reloadAffiliates(): void {
  $listReloads.set($listReloads.get() + 1);
  if ($selection.get().affiliateId) $referralReloads.set($referralReloads.get() + 1);
}

export function selectAffiliate(affiliateId: string): void {
  $payNotice.set("");
  $selection.set({ affiliateId, page: 1 });
}

export function goToReferralPage(page: number): void {
  $selection.set({ ...$selection.get(), page: Math.max(1, page) });
}

export function reloadReferrals(): void {
  $referralReloads.set($referralReloads.get() + 1);
}

/**
 * Pays one referral with the attempt's Idempotency-Key, then refreshes the figures. Returns
 * "" on success, else the message to show.
 */
export async function payReferralNow(referral: ReferralRow, key: string): Promise<string> {
  try {
    const result = await payReferral(referral.id, key);
    $payNotice.set(`Paid ${formatCents(result.payout.amount_cents)} commission for ${referral.user_email}.`);
    reloadAffiliates();
    return "";
  } catch (err) {
    // Someone else paid it meanwhile (409) or it changed: show the current figures too.
    reloadAffiliates();
    return errorMessage(err);
  }
}
