// The id of the bottom bar's More button (static HTML in sidebar.tsx), which the header island
// wires to its sheet. A module of its own: the header must not import nav.ts, whose icons
// belong to the sheet's lazy chunk.
export const MORE_BUTTON_ID = "app-more";
