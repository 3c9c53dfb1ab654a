import { describe, expect, it } from "vitest";
import { isSuperuserPath } from "../../server/web-server.ts";

describe("isSuperuserPath (kept to this machine unless EXPOSE_PB_DASHBOARD)", () => {
  it.each([
    "/_",
    "/_/",
    "/_/#/collections",
    "/api/collections/_superusers/auth-with-password",
    "/api/collections/_SUPERUSERS/auth-with-password",
    "/api/collections/%5Fsuperusers/auth-with-password",
    "/api/collections/pbc_3142635823/auth-with-password",
    "/api/collections/_superusers/records?page=1",
    "/api/collections/%E0%A4%A/records",
  ])("%s is a superuser path", (url) => {
    expect(isSuperuserPath(url)).toBe(true);
  });

  it.each([
    "/",
    "/api/health",
    "/api/collections/users/auth-with-password",
    "/api/collections/contact_messages/records",
    "/api/realtime",
    "/dashboard",
  ])("%s is not", (url) => {
    expect(isSuperuserPath(url)).toBe(false);
  });
});
