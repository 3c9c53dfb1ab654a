// The root of an island page whose first data the server read (lib/server/first-data.ts):
// the session gate (a customer's, or the console's admin gate), then the page's stores
// seeded with that data when it was read for this very user.
import type { ComponentType, ReactNode } from "react";
import type { UserRecord } from "@/lib/pocketbase-types";
import { SeedStores, seedFor, type StoreSeed } from "@/stores/seed";

interface SeededPageProps<First> {
  /** The user the server verified for this request, and what it read for them. */
  initialUser?: UserRecord | null | undefined;
  initial?: First | null | undefined;
  /** The page's store seeds from that data (null: the stores load it here). */
  seeds: (first: First | null) => readonly StoreSeed[];
  /** The session gate: AuthGate, or a console page's AdminGate (its seeds are not keyed to the user). */
  Gate: ComponentType<{ initialUser: UserRecord | null; children: (user: UserRecord) => ReactNode }>;
  admin?: boolean;
  /** The page's content, for the signed-in user. */
  Page: ComponentType<{ user: UserRecord }>;
}

export function SeededPage<First>({ initialUser = null, initial = null, seeds, Gate, admin = false, Page }: SeededPageProps<First>) {
  const content = (user: UserRecord) => (
    <SeedStores seeds={seeds(seedFor(initialUser, user, initial))} userId={admin ? "" : user.id}>
      <Page user={user} />
    </SeedStores>
  );
  return <Gate initialUser={initialUser}>{content}</Gate>;
}
