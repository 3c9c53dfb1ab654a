// The Documentation page's copy (src/content/marketing/docs.yaml) with the shop's address in
// its code samples, the API reference's own curl example for a step naming an operation and,
// while a welcome credit is granted, the credit in the sign-up step.
import { pageCopy } from "@/features/marketing/content/copy";

/**
 * `apiBase`: the shop's address ($API_BASE in the samples); `curlByOperation`: the
 * reference's curl example of each operation, by operationId.
 */
export async function docsCopy(welcome: string | null, apiBase: string, curlByOperation: ReadonlyMap<string, string>) {
  const copy = await pageCopy("docs");
  const sampleOf = (code: string, operation: string | undefined): string => {
    if (!operation) return code.replaceAll("$API_BASE", () => apiBase);
    const curl = curlByOperation.get(operation);
    if (curl === undefined) throw new Error(`docs.yaml names the operation ${operation}, which the OpenAPI document lacks`);
    return curl;
  };
  return {
    ...copy,
    quickStart: copy.quickStart.map(({ welcomeNote, operation, ...step }) => ({
      ...step,
      code: sampleOf(step.code, operation),
      text: welcome && welcomeNote ? `${step.text} ${welcomeNote.replace("$WELCOME", () => welcome)}` : step.text,
    })),
  };
}
