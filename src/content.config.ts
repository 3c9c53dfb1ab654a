// Content collections: the marketing pages' copy as data (src/content/marketing/*.yaml), one
// document a page, checked against these schemas at build. Facts the catalog owns (term days,
// refund window, labels) and settings (site name, welcome credit) are not typed here: the
// pages interpolate them.
import { defineCollection, z } from "astro:content";
import { glob } from "astro/loaders";
import { MARKETING_ICON_NAMES } from "@/features/marketing/content/icons";

/** The collection of one page's copy: src/content/marketing/<file>. */
const pageCopy = <S extends z.ZodTypeAny>(file: string, schema: S) =>
  defineCollection({ loader: glob({ pattern: file, base: "./src/content/marketing" }), schema });

const icon = z.enum(MARKETING_ICON_NAMES);
const titled = z.object({ title: z.string(), text: z.string() });
const feature = titled.extend({ icon, highlight: z.string().optional(), features: z.array(z.string()).optional() });
const codeSample = titled.extend({ label: z.string(), code: z.string() });
const link = z.object({ href: z.string(), label: z.string() });

export const collections = {
  home: pageCopy(
    "home.yaml",
    z.object({
      // fromStock: the count of countries in stock replaces value and label when there is stock.
      heroStats: z.array(z.object({ value: z.string(), label: z.string(), fromStock: z.boolean().optional() })),
      whyChoose: z.array(feature),
      proxyProducts: z.array(feature),
    }),
  ),
  docs: pageCopy(
    "docs.yaml",
    z.object({
      /**
       * Code samples write the shop's address as $API_BASE. welcomeNote follows the step's text
       * while a welcome credit is granted ($WELCOME: its amount). With `operation` (an
       * operationId of the OpenAPI document), the sample is that operation's curl example.
       */
      quickStart: z.array(
        codeSample.extend({
          id: z.string(),
          welcomeNote: z.string().optional(),
          operation: z.string().optional(),
          code: z.string().default(""),
        }),
      ),
      topicGroups: z.array(z.object({ title: z.string(), links: z.array(link) })),
      proxyTypeNotes: z.array(titled),
      securityNotes: z.array(z.string()),
      sdks: z.array(codeSample),
    }),
  ),
  program: pageCopy("program.yaml", z.object({ programs: z.array(feature), howToApply: z.array(titled) })),
  useCases: pageCopy("use-cases.yaml", z.object({ useCases: z.array(feature) })),
};
