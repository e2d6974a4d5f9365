import { describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { TEST_CRON_SECRET } from "../helpers/server";

describe("probes and routing", () => {
  it("GET /health answers 200 { status: ok }", async () => {
    const res = await call("GET", "/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("GET /ready answers 200 with its checks when the database is migrated", async () => {
    const res = await call("GET", "/ready");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok" } });
  });

  it("an unknown /v1 route is 404 NOT_FOUND in the error shape, for every method", async () => {
    for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
      const res = await call(method, "/v1/no-such-thing/abc");
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
      expect(typeof res.body.error.message).toBe("string");
      expect(res.body.error.details).toEqual({});
    }
  });

  it("the cron tick needs the cron secret", async () => {
    expect((await call("GET", "/api/cron/tick")).status).toBe(401);
    expect((await call("GET", "/api/cron/tick", { headers: { Authorization: "Bearer wrong" } })).status).toBe(401);
    const ok = await call("GET", "/api/cron/tick", { headers: { Authorization: `Bearer ${TEST_CRON_SECRET}` } });
    expect(ok.status).toBe(200);
    expect(ok.body.ok).toBe(true);
    expect(typeof ok.body.idempotencyRecordsPurged).toBe("number");
    expect(typeof ok.body.dashboardSessionsPurged).toBe("number");
    expect(typeof ok.body.oauthLeftoversPurged).toBe("number");
  });
});
