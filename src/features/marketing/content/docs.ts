// The Documentation page's copy (src/content/marketing/docs.yaml) with the API base in its code
// samples and, while a welcome credit is granted, the credit in the sign-up step.
import { pageCopy } from "@/features/marketing/content/copy";

export async function docsCopy(welcome: string | null) {
  const copy = await pageCopy("docs");
  const atApiBase = <T extends { code: string }>(sample: T): T => ({
    ...sample,
    code: sample.code.replaceAll("$API_BASE", () => copy.apiBase),
  });
  return {
    ...copy,
    quickStart: copy.quickStart.map(({ welcomeNote, ...step }) =>
      atApiBase({ ...step, text: welcome && welcomeNote ? `${step.text} ${welcomeNote.replace("$WELCOME", () => welcome)}` : step.text }),
    ),
    apiExamples: copy.apiExamples.map(atApiBase),
  };
}
