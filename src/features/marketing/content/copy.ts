// One marketing page's copy: the one document of its content collection (src/content.config.ts).
import { getCollection, type CollectionEntry, type CollectionKey } from "astro:content";

export async function pageCopy<C extends CollectionKey>(collection: C): Promise<CollectionEntry<C>["data"]> {
  const [entry] = await getCollection(collection);
  if (!entry) throw new Error(`No copy for the ${collection} page in src/content/marketing`);
  return entry.data;
}
