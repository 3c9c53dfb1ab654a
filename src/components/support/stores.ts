// Support state the customer's page and the console share: the staff name replies are
// signed with, and the file token protected attachments open with.
import { atom, onMount } from "nanostores";
import { fileToken, loadSupportNameSetting } from "@/components/support/api";
import { supportName } from "@/components/support/format";
import { isAbort } from "@/lib/api-error";
import { followUser } from "@/stores/follow-user";

/** What staff replies are signed with (the default_support_name setting, or "Support"). */
export const $supportName = atom<string>("Support");

onMount($supportName, () => {
  const request = new AbortController();
  loadSupportNameSetting(request.signal)
    .then((value) => $supportName.set(supportName(value)))
    .catch((err: unknown) => {
      if (!isAbort(err)) console.error("Loading the support name failed", err);
    });
  return () => request.abort();
});

/** How often the file token (valid 3 minutes) is renewed while attachments are shown. */
export const FILE_TOKEN_RENEW_MS = 120_000;

/** A file token of the signed-in user for protected attachments ("" until loaded). */
export const $fileToken = atom<string>("");

onMount($fileToken, () =>
  followUser(() => {
    let stopped = false;
    const renew = () =>
      fileToken()
        .then((token) => {
          if (!stopped) $fileToken.set(token);
        })
        .catch((err: unknown) => console.error("Getting a file token failed", err));
    void renew();
    const timer = window.setInterval(() => void renew(), FILE_TOKEN_RENEW_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
      $fileToken.set("");
    };
  }),
);
