import type { Db } from "../db";
import type { Scope } from "../scope";
import { readMeter } from "./meter-errors";
import { serializeMeter } from "./serialize";

export async function getMeter(db: Db, scope: Scope, id: string) {
  return serializeMeter(await readMeter(db, scope, id));
}
