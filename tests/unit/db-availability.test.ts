// What counts as the database being unreachable (lib/db-availability.ts): pg's, Prisma's and the driver adapter's
// errors of an outage, and nothing else (an outbound fetch that failed, a constraint violation).
import { describe, expect, it } from "vitest";
import { DatabaseUnreachable, isDatabaseUnavailable } from "../../lib/db-availability";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("knows an outage in each of its shapes", () => {
    for (const err of [
      new DatabaseUnreachable(false),
      withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"),
      withCode("the database system is starting up", "57P03"),
      withCode("terminating connection due to administrator command", "57P01"),
      withCode("connection failure", "08006"),
      new Error("Connection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
      withCode("Can't reach database server at 127.0.0.1:5432", "P1001"),
      Object.assign(withCode("Raw query failed.", "P2010"), { meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } } }),
      Object.assign(withCode("Raw query failed.", "P2010"), {
        meta: { driverAdapterError: { cause: { kind: "postgres", code: "57P02" } } },
      }),
      Object.assign(new Error("wrapped"), { cause: withCode("the database system is in recovery mode", "57P03") }),
    ])
      expect([err.message, isDatabaseUnavailable(err)]).toEqual([err.message, true]);
  });

  it("and nothing else", () => {
    for (const err of [
      new TypeError("fetch failed", { cause: withCode("connect ECONNREFUSED 10.0.0.1:443", "ECONNREFUSED") }),
      withCode('duplicate key value violates unique constraint "x"', "23505"),
      withCode("Unique constraint failed", "P2002"),
      new Error("something else"),
      null,
      "ECONNREFUSED",
    ])
      expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
