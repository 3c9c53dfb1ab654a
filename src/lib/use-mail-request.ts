import { useState } from "react";
import { errorMessage } from "@/lib/api-error";

/** A button that asks the server to e-mail something: sending, sent, or the error to show. */
export function useMailRequest(send: () => Promise<unknown>) {
  const [state, setState] = useState<"idle" | "sending" | "sent">("idle");
  const [error, setError] = useState("");
  const request = async () => {
    setState("sending");
    setError("");
    try {
      await send();
      setState("sent");
    } catch (err) {
      setError(errorMessage(err));
      setState("idle");
    }
  };
  return { state, error, request };
}
