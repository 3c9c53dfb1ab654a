// Every country a customer can pick at sign-up (UN members, observers and Taiwan). The
// list lives beside the hooks so the sign-up route accepts exactly what the picker offers.
import { countryNames } from "@/lib/shared-data";

export const COUNTRIES: readonly string[] = countryNames;
