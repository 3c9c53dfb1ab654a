// The name of a new gateway token (valibot, loaded with the dialog that asks for it).
import * as v from "valibot";

/** The server's rule (lib/gateway/tokens.js validateCreate), mirrored for instant feedback. */
export const GatewayTokenNameSchema = v.object({
  name: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty("Name the gateway (1-100 characters), e.g. eu-1"),
    // Characters as the server counts them (code points): an emoji is one.
    v.check((name) => Array.from(name).length <= 100, "The name must be at most 100 characters"),
  ),
});
export type GatewayTokenNameInput = v.InferInput<typeof GatewayTokenNameSchema>;
export type GatewayTokenNameOutput = v.InferOutput<typeof GatewayTokenNameSchema>;
