// Pieces of PocketBase filter expressions the list pages share.

/**
 * A LIKE pattern that matches `text` literally anywhere: `%`, `_` and `\` typed by the
 * user are escaped (PocketBase runs `~` as `LIKE ... ESCAPE '\'` and leaves a value that
 * already holds an unescaped `%` as it is).
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
