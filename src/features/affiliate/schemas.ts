// The payout method form (PUT /api/v1/affiliate/payout-method): free text, at most 500
// characters after trimming. The server (pb_hooks/lib/affiliate/affiliate.js
// payoutMethodInput) checks the same limit from catalog.json and refuses control characters.
import * as v from "valibot";
import { PAYOUT_METHOD_MAX, PAYOUT_METHOD_MAX_MESSAGE } from "@/lib/catalog";

export const PayoutMethodSchema = v.object({
  payout_method: v.pipe(v.string(), v.trim(), v.maxLength(PAYOUT_METHOD_MAX, PAYOUT_METHOD_MAX_MESSAGE)),
});
export type PayoutMethodInput = v.InferInput<typeof PayoutMethodSchema>;
export type PayoutMethodOutput = v.InferOutput<typeof PayoutMethodSchema>;
