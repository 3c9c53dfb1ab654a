// User-facing texts shared by islands that must not pull in the PocketBase SDK to show them.

/** The spec's text for an exception (section 8). */
export const UNEXPECTED_ERROR = "An unexpected error occurred";

export const OFFLINE_MESSAGE = "Cannot reach the server. Check your connection and try again.";
