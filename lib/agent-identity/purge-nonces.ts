// The tick drops agent signature nonces whose window is over: a signature that old is refused as expired anyway.
import type { Db } from "../db";

export async function purgeAgentNonces(db: Db): Promise<number> {
  return db.$executeRaw`DELETE FROM agent_nonces WHERE expires_at < now()`;
}
